package io.tributary.flower.fleet.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.flower.fleet.internal.proto.BoolList;
import io.tributary.flower.fleet.internal.proto.BytesList;
import io.tributary.flower.fleet.internal.proto.ConfigRecordValue;
import io.tributary.flower.fleet.internal.proto.DoubleList;
import io.tributary.flower.fleet.internal.proto.MetricRecordValue;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.fleet.internal.proto.SintList;
import io.tributary.flower.fleet.internal.proto.StringList;
import io.tributary.flower.fleet.internal.proto.UintList;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Flower's content addressing (its {@code InflatableObject}s), written from
 * {@code flwr/supercore/inflatable/} and the records' {@code deflate}/{@code inflate} of Flower
 * 1.27.
 *
 * <p><b>Object content</b> is a head, a zero byte and a body. The head is
 * {@code "<type> <child ids joined by ','> <body length>"} in UTF-8, where the type is the Python
 * class name ({@code Message}, {@code RecordDict}, {@code ArrayRecord}, {@code MetricRecord},
 * {@code ConfigRecord}, {@code Array}, {@code ArrayChunk}) and the children are the object's
 * distinct children in first-appearance order. The <b>object id</b> is the lowercase hex SHA-256 of
 * the whole content.
 *
 * <p><b>Bodies.</b> {@code Message}: the protobuf {@code Message} with its metadata (message id
 * emptied) and error, no content. {@code RecordDict} and {@code ArrayRecord}: Python's
 * {@code json.dumps} of {name: child id}. {@code MetricRecord} and {@code ConfigRecord}: the
 * protobuf record with its items (ints as {@code sint64}, above int64 as {@code uint64}).
 * {@code Array}: {@code json.dumps({"dtype", "shape", "stype", "arraychunk_ids"})} where the chunk
 * ids are indices into the head's children. {@code ArrayChunk}: raw bytes of the array data, cut
 * into {@link #CHUNK_SIZE} pieces (Flower's {@code FLWR_PRIVATE_MAX_ARRAY_CHUNK_SIZE}). A
 * message's id is its object id.
 */
public final class ObjectCodec {
  /** Flower's default array chunk size, 5 MiB. */
  public static final int CHUNK_SIZE = 5 * 1024 * 1024;
  /** The longest head accepted on reading (ids of up to 4096 children). */
  static final int MAX_HEAD = 70 * 4096 + 64;

  private ObjectCodec() {}

  /** An object tree with every object's content, in post-order (children before parents). */
  public record Deflated(String rootId, ObjectTree tree, LinkedHashMap<String, byte[]> objects) {}

  public static String objectId(byte[] content) {
    return objectId(content, 0, content.length);
  }

  public static String objectId(byte[] content, int off, int len) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(content, off, len);
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean isObjectId(String s) {
    if (s.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
        return false;
      }
    }
    return true;
  }

  static byte[] content(String type, Iterable<String> children, byte[] body, int off, int len) {
    String head = type + " " + String.join(",", children) + " " + len;
    byte[] h = head.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[h.length + 1 + len];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, off, out, h.length + 1, len);
    return out;
  }

  static byte[] content(String type, Iterable<String> children, byte[] body) {
    return content(type, children, body, 0, body.length);
  }

  // ---------------------------------------------------------------- deflating

  /**
   * The deflated form of the last {@link ArrayRecord} deflated through it, remembered by identity:
   * a server sends one model to every node of a round, each in its own message, and the model's
   * objects (its chunks' content and SHA-256 ids) are the same in each, so they are made once, not
   * once per node. Thread-safe.
   */
  public static final class Memo {
    private ArrayRecord record;
    private ObjectTree tree;
    private LinkedHashMap<String, byte[]> objects;

    private synchronized ObjectTree get(ArrayRecord r, Out out) {
      if (record != r) {
        return null;
      }
      objects.forEach(out.objects::putIfAbsent);
      return tree;
    }

    private synchronized void put(ArrayRecord r, ObjectTree t, LinkedHashMap<String, byte[]> o) {
      record = r;
      tree = t;
      objects = o;
    }
  }

  private static final class Out {
    final LinkedHashMap<String, byte[]> objects = new LinkedHashMap<>();
    final Memo memo;

    Out(Memo memo) {
      this.memo = memo;
    }

    ObjectTree add(String type, List<ObjectTree> children, byte[] body) {
      LinkedHashMap<String, ObjectTree> distinct = new LinkedHashMap<>();
      for (ObjectTree c : children) {
        distinct.putIfAbsent(c.getObjectId(), c);
      }
      byte[] c = content(type, distinct.keySet(), body);
      String id = objectId(c);
      objects.putIfAbsent(id, c);
      return ObjectTree.newBuilder().setObjectId(id).addAllChildren(distinct.values()).build();
    }
  }

  /** The object id a message gets when sent: the id of its content-addressed form. */
  public static String messageId(Message m) {
    return deflate(m).rootId();
  }

  /** Every object of {@code m}, its tree and id, as Flower's {@code get_all_nested_objects}. */
  public static Deflated deflate(Message m) {
    return deflate(m, com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  /**
   * {@link #deflate(Message)} with metadata fields beyond Flower 1.27's (see
   * {@link Protos#replyFields}), which the message's id covers as Flower's does.
   */
  public static Deflated deflate(Message m, com.google.protobuf.UnknownFieldSet metadataExtra) {
    return deflate(m, metadataExtra, null);
  }

  /**
   * {@link #deflate(Message)} taking the objects of an {@link ArrayRecord} from {@code memo} when
   * it deflated the same instance last (and remembering it otherwise).
   */
  public static Deflated deflate(Message m, Memo memo) {
    return deflate(m, com.google.protobuf.UnknownFieldSet.getDefaultInstance(), memo);
  }

  private static Deflated deflate(Message m, com.google.protobuf.UnknownFieldSet metadataExtra,
      Memo memo) {
    Out out = new Out(memo);
    List<ObjectTree> children = new ArrayList<>();
    if (m.hasContent()) {
      children.add(recordDict(out, m.content()));
    }
    io.tributary.flower.fleet.internal.proto.Message.Builder body =
        io.tributary.flower.fleet.internal.proto.Message.newBuilder()
            .setMetadata(Protos.metadata(m.metadata().withMessageId(""), metadataExtra));
    m.error().ifPresent(e -> body.setError(Protos.error(e)));
    ObjectTree tree = out.add("Message", children, body.build().toByteArray());
    return new Deflated(tree.getObjectId(), tree, out.objects);
  }

  private static ObjectTree recordDict(Out out, RecordDict d) {
    LinkedHashMap<String, String> refs = new LinkedHashMap<>();
    List<ObjectTree> children = new ArrayList<>();
    for (Map.Entry<String, Record> e : d.records().entrySet()) {
      ObjectTree t = switch (e.getValue()) {
        case ArrayRecord r -> arrayRecord(out, r);
        case MetricRecord r -> out.add("MetricRecord", List.of(), metricBody(r));
        case ConfigRecord r -> out.add("ConfigRecord", List.of(), configBody(r));
      };
      refs.put(e.getKey(), t.getObjectId());
      children.add(t);
    }
    return out.add("RecordDict", children, utf8(PyJson.stringMap(refs)));
  }

  private static ObjectTree arrayRecord(Out out, ArrayRecord r) {
    if (out.memo == null) {
      return arrayRecordOnce(out, r);
    }
    ObjectTree known = out.memo.get(r, out);
    if (known != null) {
      return known;
    }
    Out own = new Out(null);
    ObjectTree t = arrayRecordOnce(own, r);
    out.memo.put(r, t, own.objects);
    own.objects.forEach(out.objects::putIfAbsent);
    return t;
  }

  private static ObjectTree arrayRecordOnce(Out out, ArrayRecord r) {
    LinkedHashMap<String, String> refs = new LinkedHashMap<>();
    List<ObjectTree> children = new ArrayList<>();
    for (Map.Entry<String, Array> e : r.arrays().entrySet()) {
      ObjectTree t = array(out, e.getValue());
      refs.put(e.getKey(), t.getObjectId());
      children.add(t);
    }
    return out.add("ArrayRecord", children, utf8(PyJson.stringMap(refs)));
  }

  private static ObjectTree array(Out out, Array a) {
    byte[] data = a.data();
    List<ObjectTree> chunks = new ArrayList<>();
    List<String> distinct = new ArrayList<>();
    StringBuilder indices = new StringBuilder("[");
    for (int start = 0; start < data.length; start += CHUNK_SIZE) {
      int len = Math.min(CHUNK_SIZE, data.length - start);
      byte[] c = content("ArrayChunk", List.of(), data, start, len);
      String id = objectId(c);
      out.objects.putIfAbsent(id, c);
      ObjectTree t = ObjectTree.newBuilder().setObjectId(id).build();
      chunks.add(t);
      int index = distinct.indexOf(id);
      if (index < 0) {
        index = distinct.size();
        distinct.add(id);
      }
      indices.append(start == 0 ? "" : ", ").append(index);
    }
    indices.append(']');
    StringBuilder b = new StringBuilder("{\"dtype\": ");
    PyJson.string(b, a.dtype());
    b.append(", \"shape\": ").append(PyJson.intList(a.shape())).append(", \"stype\": ");
    PyJson.string(b, a.stype());
    b.append(", \"arraychunk_ids\": ").append(indices).append('}');
    return out.add("Array", chunks, utf8(b.toString()));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] metricBody(MetricRecord r) {
    var b = io.tributary.flower.fleet.internal.proto.MetricRecord.newBuilder();
    r.values().forEach((k, v) -> b.addItems(
        io.tributary.flower.fleet.internal.proto.MetricRecord.Item.newBuilder().setKey(k)
            .setValue(metricValue(v))));
    return b.build().toByteArray();
  }

  static byte[] configBody(ConfigRecord r) {
    var b = io.tributary.flower.fleet.internal.proto.ConfigRecord.newBuilder();
    r.values().forEach((k, v) -> b.addItems(
        io.tributary.flower.fleet.internal.proto.ConfigRecord.Item.newBuilder().setKey(k)
            .setValue(configValue(v))));
    return b.build().toByteArray();
  }

  private static MetricRecordValue metricValue(Object v) {
    var b = MetricRecordValue.newBuilder();
    switch (v) {
      case Double d -> b.setDouble(d);
      case Long l -> b.setSint64(l);
      case BigInteger u -> b.setUint64(u.longValue());
      case List<?> l when !l.isEmpty() && l.getFirst() instanceof Double -> b.setDoubleList(
          DoubleList.newBuilder().addAllVals(l.stream().map(x -> (Double) x).toList()));
      case List<?> l when l.isEmpty() -> b.setDoubleList(DoubleList.getDefaultInstance());
      case List<?> l when l.stream().anyMatch(x -> x instanceof BigInteger) -> b.setUintList(
          UintList.newBuilder().addAllVals(l.stream().map(x -> ((Number) x).longValue()).toList()));
      case List<?> l -> b.setSintList(
          SintList.newBuilder().addAllVals(l.stream().map(x -> (Long) x).toList()));
      default -> throw new IllegalArgumentException("not a metric value: " + v);
    }
    return b.build();
  }

  private static ConfigRecordValue configValue(Object v) {
    var b = ConfigRecordValue.newBuilder();
    switch (v) {
      case Double d -> b.setDouble(d);
      case Long l -> b.setSint64(l);
      case BigInteger u -> b.setUint64(u.longValue());
      case Boolean x -> b.setBool(x);
      case String s -> b.setString(s);
      case byte[] x -> b.setBytes(ByteString.copyFrom(x));
      case List<?> l when l.isEmpty() -> b.setBoolList(BoolList.getDefaultInstance());
      case List<?> l when l.getFirst() instanceof Double -> b.setDoubleList(
          DoubleList.newBuilder().addAllVals(l.stream().map(x -> (Double) x).toList()));
      case List<?> l when l.getFirst() instanceof Boolean -> b.setBoolList(
          BoolList.newBuilder().addAllVals(l.stream().map(x -> (Boolean) x).toList()));
      case List<?> l when l.getFirst() instanceof String -> b.setStringList(
          StringList.newBuilder().addAllVals(l.stream().map(x -> (String) x).toList()));
      case List<?> l when l.getFirst() instanceof byte[] -> b.setBytesList(
          BytesList.newBuilder().addAllVals(l.stream().map(x -> ByteString.copyFrom((byte[]) x))
              .toList()));
      case List<?> l when l.stream().anyMatch(x -> x instanceof BigInteger) -> b.setUintList(
          UintList.newBuilder().addAllVals(l.stream().map(x -> ((Number) x).longValue()).toList()));
      case List<?> l -> b.setSintList(
          SintList.newBuilder().addAllVals(l.stream().map(x -> (Long) x).toList()));
      default -> throw new IllegalArgumentException("not a config value: " + v);
    }
    return b.build();
  }

  /**
   * Checks that {@code tree} is what the objects' heads say: each node's children are exactly the
   * distinct children its object names, in any order (Flower's SQL store lists them sorted by
   * id, its in-memory store in the head's order), and no deeper than 16. A subtree that appears
   * under several parents is checked once.
   */
  public static void checkTree(ObjectTree tree, Map<String, byte[]> objects)
      throws BadObjectException {
    checkTree(tree, objects, new java.util.HashSet<>(), 0, 16);
  }

  /** {@link #checkTree(ObjectTree, Map)} no deeper than {@code maxDepth}. */
  public static void checkTree(ObjectTree tree, Map<String, byte[]> objects, int maxDepth)
      throws BadObjectException {
    checkTree(tree, objects, new java.util.HashSet<>(), 0, maxDepth);
  }

  private static void checkTree(ObjectTree tree, Map<String, byte[]> objects,
      java.util.Set<String> checked, int depth, int maxDepth) throws BadObjectException {
    if (depth > maxDepth) {
      throw new BadObjectException("the object tree is deeper than " + maxDepth);
    }
    String id = tree.getObjectId();
    byte[] c = objects.get(id);
    if (c == null) {
      throw new BadObjectException("object " + clip(id) + " is missing");
    }
    Parsed p = parse(id, c);
    java.util.Set<String> kids = new java.util.HashSet<>();
    for (ObjectTree t : tree.getChildrenList()) {
      if (!kids.add(t.getObjectId())) {
        throw new BadObjectException("the object tree lists child " + clip(t.getObjectId())
            + " of object " + id + " twice");
      }
    }
    if (kids.size() != p.children.size() || !kids.containsAll(p.children)) {
      throw new BadObjectException("the object tree disagrees with the head of object " + id);
    }
    if (!checked.add(id)) {
      return;
    }
    for (ObjectTree t : tree.getChildrenList()) {
      checkTree(t, objects, checked, depth + 1, maxDepth);
    }
  }

  // ---------------------------------------------------------------- inflating

  /** Content that is not a well-formed object of the expected kind. */
  public static final class BadObjectException extends Exception {
    public BadObjectException(String message) {
      super(message);
    }
  }

  record Parsed(String type, List<String> children, int bodyOff, int bodyLen) {}

  static Parsed parse(String id, byte[] c) throws BadObjectException {
    int zero = -1;
    for (int i = 0; i < Math.min(c.length, MAX_HEAD); i++) {
      if (c[i] == 0) {
        zero = i;
        break;
      }
    }
    if (zero < 0) {
      throw new BadObjectException("object " + id + " has no head");
    }
    String head = new String(c, 0, zero, StandardCharsets.UTF_8);
    String[] parts = head.split(" ", -1);
    if (parts.length != 3) {
      throw new BadObjectException("object " + id + " has a malformed head");
    }
    long len;
    try {
      len = Long.parseLong(parts[2]);
    } catch (NumberFormatException e) {
      throw new BadObjectException("object " + id + " has a malformed body length");
    }
    if (len != c.length - zero - 1) {
      throw new BadObjectException("object " + id + " declares a body of " + len
          + " bytes but has " + (c.length - zero - 1));
    }
    List<String> children = parts[1].isEmpty() ? List.of() : List.of(parts[1].split(",", -1));
    for (String ch : children) {
      if (!isObjectId(ch)) {
        throw new BadObjectException("object " + id + " names an invalid child id");
      }
    }
    return new Parsed(parts[0], children, zero + 1, (int) len);
  }

  /**
   * How much one message may stand for once inflated, checked before any array is allocated.
   *
   * @param maxInflatedBytes array bytes, counted once per name that refers to them
   * @param maxElements record entries (names, items) and array chunk references, counted the same
   * @param maxDepth the deepest object tree accepted (a message's is 5 deep)
   */
  public record Limits(long maxInflatedBytes, long maxElements, int maxDepth) {
    public Limits {
      if (maxInflatedBytes < 0 || maxElements < 0 || maxDepth < 1) {
        throw new IllegalArgumentException("inflation limits must be positive, got "
            + maxInflatedBytes + " bytes, " + maxElements + " entries, depth " + maxDepth);
      }
    }

    /**
     * Defaults for this JVM: a quarter of the maximum heap in array bytes (the app holds what it
     * received and what it replies beside the pulled objects), one entry per 256 bytes of heap,
     * depth 16.
     */
    public static Limits fromHeap() {
      long heap = Runtime.getRuntime().maxMemory();
      return new Limits(heap / 4, Math.max(1 << 16, heap / 256), 16);
    }

    public Limits withMaxInflatedBytes(long bytes) {
      return new Limits(bytes, maxElements, maxDepth);
    }

    public Limits withMaxElements(long elements) {
      return new Limits(maxInflatedBytes, elements, maxDepth);
    }
  }

  /**
   * The message whose objects are {@code objects}, rooted at {@code rootId}, within
   * {@link Limits#fromHeap()}; see {@link #inflate(String, Map, Limits)}.
   */
  public static Message inflate(String rootId, Map<String, byte[]> objects)
      throws BadObjectException {
    return inflate(rootId, objects, Limits.fromHeap());
  }

  /**
   * The message whose objects are {@code objects}, rooted at {@code rootId}, checked as Flower's
   * {@code inflate}s check them: every object's type where it appears, every child named in a
   * head present, {@code ArrayRecord}/{@code RecordDict}/{@code Array} bodies naming exactly the
   * head's children (in any order). Before anything is allocated the message's inflated size is
   * measured and held to {@code limits}; then each object is inflated once, and a child several
   * names refer to is shared by them, not copied. Content hashes are not checked here: the caller
   * checks each object as it arrives.
   */
  public static Message inflate(String rootId, Map<String, byte[]> objects, Limits limits)
      throws BadObjectException {
    return new Inflater(objects, limits).inflate(rootId);
  }

  static String clip(String s) {
    String t = s.replaceAll("\\p{Cntrl}", "?");
    return t.length() > 60 ? t.substring(0, 60) + "..." : t;
  }
}
