package io.tributary.runtime.executor.internal.pass;

import io.tributary.core.values.StructValue;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import io.tributary.tensor.serialization.SerializationException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The bytes a {@link io.tributary.runtime.PassEngine} moves: a worker's {@link PassPart} payload
 * and the {@code earlier} results of a {@link io.tributary.runtime.PassRequest}.
 *
 * <p>Hand-written rather than Java serialization so that a payload from a worker, which the
 * driver cannot trust, is only ever read as data: every count and length is checked against the
 * bytes left (and against what the pass expects) before anything is allocated, and a bad payload
 * is a {@link PassEngineException} naming what was wrong. Floating-point sums travel as their raw
 * bits and tensors in the {@code proto.ndarray} encoding, so a decoded partial is bit for bit the
 * partial the worker computed. The formats open with a four-byte magic and a version byte.
 *
 * <p>Engines use the value format too, for what they send their workers beside the request
 * ({@link #encodeValue}, {@link #decodeValue}, reached through {@link
 * io.tributary.runtime.PassEngine#encodeValue}).
 */
public final class PassCodec {
  private static final byte[] PART_MAGIC = {'T', 'B', 'P', 'P'};
  private static final byte[] EARLIER_MAGIC = {'T', 'B', 'P', 'E'};
  private static final byte[] VALUE_MAGIC = {'T', 'B', 'P', 'V'};
  private static final byte VERSION = 1;
  /** Tree levels at most, so subtrees per range at most twice this. */
  private static final int MAX_SUBTREES = 2 * 63;
  /** Nesting of structs and lists in a value at most, so decoding never overflows the stack. */
  private static final int MAX_DEPTH = 64;
  /** Dimensions of a tensor at most, numpy's limit. */
  static final int MAX_RANK = 64;

  private static final byte TENSOR = 1;
  private static final byte STRUCT = 2;
  private static final byte LIST = 3;

  private static final ProtoNdarraySerializer TENSORS = new ProtoNdarraySerializer();

  private PassCodec() {}

  // ------------------------------------------------------------------ parts

  /** The payload of a worker's part of a pass. */
  static byte[] encodePart(ClientPass.Part part, List<Sink> sinks) {
    Out out = new Out();
    out.bytes(PART_MAGIC);
    out.u8(VERSION);
    out.i64(part.fromGroup());
    out.i64(part.toGroup());
    out.u8(part.complete() ? 1 : 0);
    out.i32(part.complete() ? sinks.size() : 0);
    if (part.complete()) {
      for (int s = 0; s < sinks.size(); s++) {
        List<ReductionTree.Node<Object>> nodes = part.subtrees().get(s);
        out.i32(nodes.size());
        for (ReductionTree.Node<Object> n : nodes) {
          out.i32(n.level());
          out.i64(n.index());
          sinks.get(s).writePartial(n.value(), out);
        }
      }
    }
    out.i32(part.failures().size());
    for (ClientFailure f : part.failures()) {
      out.i32(f.client());
      out.string(f.intrinsic());
      out.string(f.operation());
      out.u8(f.kind().ordinal());
      out.string(f.message());
    }
    out.i64(part.successes());
    return out.toArray();
  }

  /**
   * Decodes and checks the parts of a pass over {@code clients} clients: each payload must be
   * well formed, hold for every sink exactly the complete subtrees of its groups, and name only
   * its own clients; together the parts must cover every group once.
   *
   * @param strict whether failures are not tolerated, the one case where a part may stop early
   * @return the parts in group order
   * @throws PassEngineException naming the first thing wrong
   */
  public static List<ClientPass.Part> decodeParts(List<PassPart> parts, List<Sink> sinks,
      int clients, boolean strict) {
    return decodeRange(parts, sinks, clients, strict, 0, ClientPass.groups(clients));
  }

  /**
   * Like {@link #decodeParts}, for parts that together cover groups {@code [from, to)} of the
   * pass rather than all of them: what a worker combining its neighbours' parts receives.
   */
  static List<ClientPass.Part> decodeRange(List<PassPart> parts, List<Sink> sinks, int clients,
      boolean strict, long from, long to) {
    int groups = ClientPass.groups(clients);
    if (from < 0 || to < from || to > groups) {
      throw malformed("groups [" + from + ", " + to + ") are not inside the pass's " + groups
          + " groups");
    }
    if (parts == null) {
      throw malformed("the pass engine returned no list of parts");
    }
    List<PassPart> sorted = new ArrayList<>();
    for (PassPart p : parts) {
      if (p == null) {
        throw malformed("the pass engine returned a null part");
      }
      sorted.add(p);
    }
    sorted.sort(Comparator.comparingLong(PassPart::fromGroup)
        .thenComparingLong(PassPart::toGroup));
    long covered = from;
    for (int k = 0; k < sorted.size(); k++) {
      PassPart p = sorted.get(k);
      if (p.fromGroup() < covered) {
        throw malformed("pass part " + range(p) + " overlaps "
            + range(sorted.get(k - 1)) + ": a group was computed twice");
      }
      if (p.fromGroup() > covered) {
        throw malformed("groups [" + covered + ", " + p.fromGroup()
            + ") are missing from the pass parts");
      }
      if (p.toGroup() > to) {
        throw malformed("pass part " + range(p) + " is outside " + (to == groups
            ? "the pass's " + groups + " groups" : "groups " + rangeOf(from, to)));
      }
      covered = p.toGroup();
    }
    if (covered != to) {
      throw malformed("groups [" + covered + ", " + to + ") are missing from the pass parts");
    }
    List<ClientPass.Part> out = new ArrayList<>();
    for (PassPart p : sorted) {
      out.add(decodePart(p, sinks, clients, groups, strict));
    }
    return out;
  }

  /**
   * Decodes and checks one part of a pass over {@code clients} clients, as {@link #decodeParts}
   * does each of its parts (what a worker combining a stream of parts needs).
   */
  static ClientPass.Part decodeOne(PassPart p, List<Sink> sinks, int clients, boolean strict) {
    int groups = ClientPass.groups(clients);
    if (p.toGroup() > groups) {
      throw malformed("pass part " + range(p) + " is outside the pass's " + groups + " groups");
    }
    return decodePart(p, sinks, clients, groups, strict);
  }

  private static ClientPass.Part decodePart(PassPart p, List<Sink> sinks, int clients,
      int groups, boolean strict) {
    String where = "pass part " + range(p);
    In in = new In(p.payload(), where);
    in.magic(PART_MAGIC);
    long from = in.i64("the first group");
    long to = in.i64("the last group");
    if (from != p.fromGroup() || to != p.toGroup()) {
      throw in.bad("the payload is for groups [" + from + ", " + to + ")");
    }
    int f = (int) from;
    int t = (int) to;
    int complete = in.u8("the completeness flag");
    if (complete > 1) {
      throw in.bad("the completeness flag is " + complete);
    }
    if (complete == 0 && !strict) {
      throw in.bad("it stopped early, which only a pass that tolerates no failure may");
    }
    int sinkCount = in.count("sinks", sinks.size());
    if (sinkCount != (complete == 1 ? sinks.size() : 0)) {
      throw in.bad("it holds " + sinkCount + " aggregations, expected "
          + (complete == 1 ? sinks.size() : 0));
    }
    List<ReductionTree.Node<Object>> expected = expectedSubtrees(groups, f, t);
    List<List<ReductionTree.Node<Object>>> subtrees = new ArrayList<>();
    for (int s = 0; s < sinkCount; s++) {
      Sink sink = sinks.get(s);
      int n = in.count("subtrees of " + sink.intrinsic(), MAX_SUBTREES);
      if (n != expected.size()) {
        throw in.bad(sink.intrinsic() + " has " + n + " subtrees, but groups " + rangeOf(f, t)
            + " form " + expected.size());
      }
      List<ReductionTree.Node<Object>> nodes = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        int level = in.i32("a subtree level");
        long index = in.i64("a subtree index");
        ReductionTree.Node<Object> e = expected.get(k);
        if (level != e.level() || index != e.index()) {
          throw in.bad(sink.intrinsic() + " holds subtree (" + level + ", " + index + "), which"
              + " is not the complete subtree (" + e.level() + ", " + e.index() + ") of groups "
              + rangeOf(f, t) + " in a tree of " + groups + " groups");
        }
        Object partial = sink.readPartial(in);
        nodes.add(new ReductionTree.Node<>(level, index, partial));
      }
      subtrees.add(nodes);
    }
    int groupSize = ClientPass.groupSize(clients);
    long firstClient = (long) f * groupSize;
    long endClient = Math.min(clients, (long) t * groupSize);
    long inRange = Math.max(0, endClient - firstClient);
    int failureCount = in.count("failures", (int) Math.min(Integer.MAX_VALUE, inRange));
    List<ClientFailure> failures = new ArrayList<>();
    long previous = -1;
    for (int k = 0; k < failureCount; k++) {
      int client = in.i32("a failed client");
      if (client < firstClient || client >= endClient || client <= previous) {
        throw in.bad("failed client " + client + " is not one of its clients ["
            + firstClient + ", " + endClient + ") in increasing order");
      }
      previous = client;
      String intrinsic = in.string("a failure's intrinsic");
      String operation = in.string("a failure's operation");
      int kind = in.u8("a failure's kind");
      ClientFailure.Kind[] kinds = ClientFailure.Kind.values();
      if (kind >= kinds.length) {
        throw in.bad("failure kind " + kind + " does not exist");
      }
      String message = in.string("a failure's message");
      failures.add(new ClientFailure(client, intrinsic, operation, kinds[kind], message));
    }
    long successes = in.i64("the success count");
    if (successes < 0 || successes + failureCount > inRange
        || (complete == 1 && successes + failureCount != inRange)) {
      throw in.bad(successes + " successes and " + failureCount + " failures do not account for "
          + "its " + inRange + " clients");
    }
    if (complete == 0 && failureCount == 0) {
      throw in.bad("it stopped early without a failed client");
    }
    in.end();
    return new ClientPass.Part(f, t, subtrees, failures, successes, complete == 1);
  }

  /** The complete subtrees that groups {@code [from, to)} form, as a worker's folder makes them. */
  private static List<ReductionTree.Node<Object>> expectedSubtrees(int groups, int from, int to) {
    ReductionTree.Folder<Object> folder =
        new ReductionTree<Object>(groups, (a, b) -> a).folder(from, to);
    for (int g = from; g < to; g++) {
      folder.add(Boolean.TRUE);
    }
    return folder.subtrees();
  }

  private static String range(PassPart p) {
    return "[" + p.fromGroup() + ", " + p.toGroup() + ")";
  }

  private static String rangeOf(long from, long to) {
    return "[" + from + ", " + to + ")";
  }

  // ------------------------------------------------------------------ earlier passes

  /** The results of an invocation's passes so far, each encoded by {@link #encodePass}. */
  public static byte[] encodeEarlier(List<byte[]> passes) {
    Out out = new Out();
    out.bytes(EARLIER_MAGIC);
    out.u8(VERSION);
    out.i32(passes.size());
    for (byte[] p : passes) {
      out.bytes(p);
    }
    return out.toArray();
  }

  /** One pass's results, one value per sink, as {@link #encodeEarlier} lists them. */
  public static byte[] encodePass(Object[] values) {
    Out out = new Out();
    out.i32(values.length);
    for (Object v : values) {
      writeValue(v, out);
    }
    return out.toArray();
  }

  /**
   * The results of passes {@code [0, passes)} from {@code earlier}.
   *
   * @throws PassEngineException when the bytes are malformed or hold fewer passes
   */
  static List<List<Object>> decodeEarlier(byte[] earlier, int passes) {
    In in = new In(earlier, "the earlier pass results");
    in.magic(EARLIER_MAGIC);
    int n = in.count("passes", Integer.MAX_VALUE);
    if (n < passes) {
      throw in.bad("they hold " + n + " passes, but pass " + passes + " needs " + passes);
    }
    List<List<Object>> out = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      int values = in.count("values of pass " + p, Integer.MAX_VALUE);
      List<Object> pass = new ArrayList<>();
      for (int k = 0; k < values; k++) {
        pass.add(readValue(in, 0));
      }
      out.add(pass);
    }
    in.end();
    return out.subList(0, passes);
  }

  // ------------------------------------------------------------------ values

  /**
   * One value (a tensor, a struct, or a list of them) on its own, as an engine sends it.
   *
   * @throws PassEngineException for anything else, which cannot travel
   */
  public static byte[] encodeValue(Object value) {
    Out out = new Out();
    out.bytes(VALUE_MAGIC);
    out.u8(VERSION);
    writeValue(value, out);
    return out.toArray();
  }

  /**
   * The value {@link #encodeValue} wrote.
   *
   * @throws PassEngineException when the bytes are malformed
   */
  public static Object decodeValue(byte[] bytes) {
    In in = new In(bytes, "an engine's value");
    in.magic(VALUE_MAGIC);
    Object v = readValue(in, 0);
    in.end();
    return v;
  }

  /**
   * Writes a value of the runtime representation: a tensor, a struct, or a list (a sequence or
   * a {@code {T}@CLIENTS} result) of them.
   *
   * @throws PassEngineException for anything else, which cannot travel
   */
  public static void writeValue(Object value, Out out) {
    switch (value) {
      case Tensor t -> {
        out.u8(TENSOR);
        byte[] b;
        try {
          b = TENSORS.serialize(List.of(t)).values().get(0);
        } catch (SerializationException e) {
          throw new PassEngineException("a tensor cannot travel to a pass engine: "
              + e.getMessage(), e);
        }
        out.i32(b.length);
        out.bytes(b);
      }
      case StructValue s -> {
        out.u8(STRUCT);
        out.i32(s.size());
        for (int i = 0; i < s.size(); i++) {
          Optional<String> name = s.names().get(i);
          out.u8(name.isPresent() ? 1 : 0);
          if (name.isPresent()) {
            out.string(name.get());
          }
          writeValue(s.get(i), out);
        }
      }
      case List<?> l -> {
        out.u8(LIST);
        out.i32(l.size());
        for (Object v : l) {
          writeValue(v, out);
        }
      }
      case null -> throw new PassEngineException("a null value cannot travel to a pass engine",
          null);
      default -> throw new PassEngineException("a value of " + value.getClass().getName()
          + " cannot travel to a pass engine (tensors, structs and lists can)", null);
    }
  }

  /** Reads a value {@link #writeValue} wrote. */
  public static Object readValue(In in, int depth) {
    if (depth > MAX_DEPTH) {
      throw in.bad("a value nests deeper than " + MAX_DEPTH + " levels");
    }
    int tag = in.u8("a value tag");
    switch (tag) {
      case TENSOR -> {
        int len = in.count("tensor bytes", Integer.MAX_VALUE);
        byte[] b = in.bytes(len);
        try {
          return TENSORS.deserialize(Parameters.ofValues(ProtoNdarraySerializer.TENSOR_TYPE,
              List.of(b))).get(0);
        } catch (SerializationException e) {
          throw in.bad("a tensor is malformed: " + e.getMessage());
        }
      }
      case STRUCT -> {
        int n = in.count("struct elements", Integer.MAX_VALUE);
        List<Optional<String>> names = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          int named = in.u8("a struct name flag");
          if (named > 1) {
            throw in.bad("a struct name flag is " + named);
          }
          names.add(named == 1 ? Optional.of(in.string("a struct element name"))
              : Optional.empty());
          values.add(readValue(in, depth + 1));
        }
        return StructValue.of(names, values);
      }
      case LIST -> {
        int n = in.count("list elements", Integer.MAX_VALUE);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          values.add(readValue(in, depth + 1));
        }
        return values;
      }
      default -> throw in.bad("value tag " + tag + " is unknown");
    }
  }

  /** Writes a shape: its rank, then its dimensions. */
  public static void writeShape(Shape shape, Out out) {
    out.i32(shape.rank());
    for (long d : shape.dims()) {
      out.i64(d);
    }
  }

  /**
   * Reads a shape of a tensor whose elements take {@code bytesPerElement} bytes each in what
   * follows, refusing one with more elements than the bytes left could hold.
   */
  public static Shape readShape(In in, int bytesPerElement) {
    int rank = in.count("dimensions", MAX_RANK);
    long[] dims = new long[rank];
    long size = 1;
    for (int i = 0; i < rank; i++) {
      dims[i] = in.i64("a dimension");
      if (dims[i] < 0) {
        throw in.bad("dimension " + dims[i] + " is negative");
      }
      if (dims[i] != 0 && size > in.remaining() / bytesPerElement / dims[i]) {
        throw in.bad("a shape with dimension " + dims[i] + " has more elements than the "
            + in.remaining() + " bytes left hold");
      }
      size *= dims[i];
    }
    if (size > in.remaining() / bytesPerElement) {
      throw in.bad("a shape of " + size + " elements is more than the bytes left hold");
    }
    return Shape.of(dims);
  }

  static PassEngineException malformed(String message) {
    return new PassEngineException("malformed pass engine data: " + message, null);
  }

  /** Big-endian longs in a byte array, eight bytes at a time. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * An exact byte buffer, big-endian, that grows by adding blocks rather than by copying: a
   * part's sums are megabytes (8 MB for a 1,000,000-parameter model), and an array doubled to
   * hold them left a trail of copies, the large ones G1 "humongous" objects (half a region or
   * more) that go straight into the old generation. Blocks grow to {@value #BLOCK} bytes, below
   * that size; {@link #toArray} copies them once into an array of the exact length.
   */
  public static final class Out {
    /** The largest block: 256 KB, below G1's humongous size for every region size. */
    static final int BLOCK = 256 << 10;

    private final List<byte[]> full = new ArrayList<>();
    private long fullBytes;
    private byte[] buf = new byte[256];
    private int size;

    /** Makes room for {@code more} bytes (at most 8) in the current block. */
    private void room(int more) {
      if (buf.length - size >= more) {
        return;
      }
      if (fullBytes + size + more > Integer.MAX_VALUE - 8) {
        throw new PassEngineException("a pass payload is over 2 GiB", null);
      }
      full.add(size == buf.length ? buf : Arrays.copyOf(buf, size));
      fullBytes += size;
      buf = new byte[(int) Math.min(BLOCK, Math.max(256, fullBytes))];
      size = 0;
    }

    /** Writes one byte. */
    public void u8(int v) {
      room(1);
      buf[size++] = (byte) v;
    }

    /** Writes a big-endian 32-bit integer. */
    public void i32(int v) {
      room(4);
      for (int s = 24; s >= 0; s -= 8) {
        buf[size++] = (byte) (v >>> s);
      }
    }

    /** Writes a big-endian 64-bit integer. */
    public void i64(long v) {
      room(8);
      LONGS.set(buf, size, v);
      size += 8;
    }

    /** Writes a double's raw bits. */
    public void f64(double v) {
      i64(Double.doubleToRawLongBits(v));
    }

    void bytes(byte[] b) {
      int at = 0;
      while (at < b.length) {
        room(1);
        int n = Math.min(b.length - at, buf.length - size);
        System.arraycopy(b, at, buf, size, n);
        size += n;
        at += n;
      }
    }

    void string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      i32(b.length);
      bytes(b);
    }

    /** Writes each of {@code a}'s longs. */
    public void longs(long[] a) {
      int k = 0;
      while (k < a.length) {
        room(8);
        int n = Math.min(a.length - k, (buf.length - size) / 8);
        for (int j = 0; j < n; j++) {
          LONGS.set(buf, size, a[k + j]);
          size += 8;
        }
        k += n;
      }
    }

    /** Writes each of {@code a}'s doubles' raw bits. */
    public void doubles(double[] a) {
      int k = 0;
      while (k < a.length) {
        room(8);
        int n = Math.min(a.length - k, (buf.length - size) / 8);
        for (int j = 0; j < n; j++) {
          LONGS.set(buf, size, Double.doubleToRawLongBits(a[k + j]));
          size += 8;
        }
        k += n;
      }
    }

    /** The bytes written so far, in one array of their length. */
    public byte[] toArray() {
      byte[] out = new byte[Math.toIntExact(fullBytes + size)];
      int at = 0;
      for (byte[] block : full) {
        System.arraycopy(block, 0, out, at, block.length);
        at += block.length;
      }
      System.arraycopy(buf, 0, out, at, size);
      return out;
    }
  }

  /** A bounds-checked reader of what {@link Out} wrote; a short or bad input is refused. */
  public static final class In {
    private final byte[] buf;
    private final String where;
    private int pos;

    In(byte[] buf, String where) {
      this.buf = buf;
      this.where = where;
    }

    /** The exception for malformed bytes at the current position. */
    public PassEngineException bad(String message) {
      return malformed(where + " at byte " + pos + ": " + message);
    }

    int remaining() {
      return buf.length - pos;
    }

    private void need(int n, String what) {
      if (n > remaining()) {
        throw bad("it is truncated: " + what + " needs " + n + " bytes, " + remaining()
            + " are left");
      }
    }

    void magic(byte[] magic) {
      need(magic.length + 1, "the header");
      if (!Arrays.equals(buf, pos, pos + magic.length, magic, 0, magic.length)) {
        throw bad("wrong magic: it does not start with '"
            + new String(magic, StandardCharsets.US_ASCII) + "'");
      }
      pos += magic.length;
      int version = buf[pos++] & 0xff;
      if (version != VERSION) {
        throw bad("version " + version + " is not the supported version " + VERSION);
      }
    }

    /** Reads one byte; {@code what} names it in the malformed-bytes message. */
    public int u8(String what) {
      need(1, what);
      return buf[pos++] & 0xff;
    }

    /** Reads a big-endian 32-bit integer. */
    public int i32(String what) {
      need(4, what);
      int v = 0;
      for (int k = 0; k < 4; k++) {
        v = (v << 8) | (buf[pos++] & 0xff);
      }
      return v;
    }

    /** Reads a big-endian 64-bit integer. */
    public long i64(String what) {
      need(8, what);
      long v = 0;
      for (int k = 0; k < 8; k++) {
        v = (v << 8) | (buf[pos++] & 0xff);
      }
      return v;
    }

    /** Reads a double from its raw bits. */
    public double f64(String what) {
      return Double.longBitsToDouble(i64(what));
    }

    /**
     * A count of items, each at least one byte: in {@code [0, max]} and no more than the bytes
     * left, so a hostile count never sizes an allocation.
     */
    public int count(String what, int max) {
      int n = i32("the number of " + what);
      if (n < 0 || n > max) {
        throw bad("the number of " + what + " is " + n + ", which is "
            + (n < 0 ? "negative" : "over the limit of " + max));
      }
      if (n > remaining()) {
        throw bad("it is truncated or corrupt: the number of " + what + " is " + n
            + ", more than the " + remaining() + " bytes left");
      }
      return n;
    }

    byte[] bytes(int n) {
      need(n, "a byte string");
      byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }

    String string(String what) {
      int n = count("bytes of " + what, Integer.MAX_VALUE);
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    /** Reads {@code n} longs. */
    public long[] longs(int n, String what) {
      need(Math.multiplyExact(8, n), what);
      long[] a = new long[n];
      for (int k = 0; k < n; k++) {
        a[k] = (long) LONGS.get(buf, pos);
        pos += 8;
      }
      return a;
    }

    /** Reads {@code n} doubles. */
    public double[] doubles(int n, String what) {
      need(Math.multiplyExact(8, n), what);
      double[] a = new double[n];
      for (int k = 0; k < n; k++) {
        a[k] = Double.longBitsToDouble((long) LONGS.get(buf, pos));
        pos += 8;
      }
      return a;
    }

    void end() {
      if (remaining() != 0) {
        throw bad(remaining() + " bytes follow the end");
      }
    }
  }
}
