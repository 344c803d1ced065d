package io.tributary.cli.hostile;

import io.tributary.data.CsvLoader;
import io.tributary.data.Idx;
import io.tributary.format.ModelFile;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.npy.NpzReadOptions;
import io.tributary.tensor.npy.NpzReader;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ParametersCodec;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Crafts hostile inputs for every reader (zip bombs, overlapping entries, huge declared shapes,
 * gzip bombs) in a folder and reads each, printing one line per case: {@code CASE TYPE message}
 * with the type of exception it got, {@code NONE} when it read without one, or {@code OOM}.
 *
 * <p>Run in a JVM with a small heap ({@code -Xmx256m}) by {@link SmallHeapReadersTest}: every
 * input here declares or expands to more than that heap holds.
 */
public final class HostileInputsMain {
  private static final long MIB = 1L << 20;

  /** One reader run on one crafted file. */
  @FunctionalInterface
  private interface Read {
    void run(Path file) throws IOException;
  }

  private record Case(String name, String file, Craft craft, Read read) {}

  @FunctionalInterface
  private interface Craft {
    void write(Path file) throws IOException;
  }

  private HostileInputsMain() {}

  /** The cases, in order; each name says what the crafted file claims. */
  static List<Case> cases() {
    List<Case> c = new ArrayList<>();
    // NPY and NPZ
    c.add(new Case("npy-huge-declared-shape", "huge.npy",
        f -> Files.write(f, npy("<f8", "(1000000, 1000000)", 64)), Npy::read));
    c.add(new Case("npy-65-dimensions", "deep.npy",
        f -> Files.write(f, npy("<f4", "(" + "1, ".repeat(65) + ")", 4)), Npy::read));
    c.add(new Case("npz-huge-declared-shape", "huge.npz", f -> {
      RawZip.Data d = RawZip.stored("w.npy", npy("<f8", "(1000000, 1000000)", 64));
      RawZip.write(f, List.of(d), List.of(new RawZip.Record("w.npy", d, -1)));
    }, Npz::read));
    c.add(new Case("npz-deflate-bomb", "bomb.npz", f -> {
      RawZip.Data d = RawZip.deflatedZeros("w.npy", npyHeader("|u1", "(" + 400 * MIB + ",)"), 400 * MIB);
      RawZip.write(f, List.of(d), List.of(new RawZip.Record("w.npy", d, -1)));
    }, Npz::read));
    c.add(new Case("npz-overlapping-entries", "overlap.npz", f -> {
      RawZip.Data d = RawZip.deflatedZeros("a0.npy", npyHeader("|u1", "(" + 64 * MIB + ",)"), 64 * MIB);
      List<RawZip.Record> shared = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        shared.add(new RawZip.Record("a" + i + ".npy", d, 0));
      }
      RawZip.write(f, List.of(d), shared);
    }, Npz::read));
    // The same archives through the streaming reader of convert (.npz to numpy.ndarray .pb)
    for (Case npz : List.copyOf(c.subList(2, 5))) {
      c.add(new Case(npz.name().replace("npz-", "npz-stream-"), npz.file(), npz.craft(),
          HostileInputsMain::streamNpz));
    }
    // The model zip
    c.add(new Case("model-zip-deflate-bomb", "bomb.zip", f -> {
      RawZip.Data d = RawZip.deflatedZeros("tags.txt", new byte[0], 400 * MIB);
      RawZip.write(f, List.of(d), List.of(new RawZip.Record("tags.txt", d, -1)));
    }, HostileInputsMain::readModel));
    c.add(new Case("model-zip-many-small-bombs", "many.zip", f -> {
      List<RawZip.Data> data = new ArrayList<>();
      List<RawZip.Record> records = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        RawZip.Data d = RawZip.deflatedZeros("z" + i + ".bin", new byte[0], MIB);
        data.add(d);
        records.add(new RawZip.Record(d.name(), d, -1));
      }
      RawZip.write(f, data, records);
    }, HostileInputsMain::readModel));
    c.add(new Case("model-zip-overlapping-bombs", "overlap-bombs.zip", f -> {
      RawZip.Data d = RawZip.deflatedZeros("a/params/0.fb", new byte[0], MIB);
      List<RawZip.Record> shared = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        shared.add(new RawZip.Record("a/params/" + i + ".fb", d, 0));
      }
      RawZip.write(f, List.of(d), shared);
    }, HostileInputsMain::readModel));
    c.add(new Case("model-zip-overlapping-entries", "overlap.zip", f -> {
      RawZip.Data d = RawZip.stored("tags.txt", "a\n".getBytes(StandardCharsets.UTF_8));
      RawZip.write(f, List.of(d), List.of(new RawZip.Record("tags.txt", d, 0), new RawZip.Record("b.txt", d, 0)));
    }, HostileInputsMain::readModel));
    // IDX and CSV
    c.add(new Case("idx-gzip-bomb", "bomb-idx3-ubyte.gz", f -> gzip(f, idxHeader(400 * MIB), 400 * MIB, null),
        Idx::read));
    c.add(new Case("idx-gzip-header-lies", "lies-idx3-ubyte.gz",
        f -> gzip(f, idxHeader(Integer.MAX_VALUE), 100, null), Idx::read));
    c.add(new Case("csv-gzip-bomb", "bomb.csv.gz", f -> gzip(f, new byte[0], 400 * MIB,
        "0,0\n".getBytes(StandardCharsets.US_ASCII)), file -> CsvLoader.builder().build().load(file)));
    // proto.ndarray
    c.add(new Case("proto-ndarray-huge-declared-shape", "huge.pb", f -> Files.write(f, protoValue()),
        f -> new ProtoNdarraySerializer().deserialize(
            Parameters.ofValues(ProtoNdarraySerializer.TENSOR_TYPE, List.of(Files.readAllBytes(f))))));
    return c;
  }

  /**
   * Crafts and reads each case in the folder {@code args[0]}, printing one line per case.
   *
   * @param args the folder to craft the files in
   */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    for (Case c : cases()) {
      Path file = dir.resolve(c.file());
      c.craft().write(file);
      System.out.println(c.name() + " " + outcome(c, file));
      System.out.flush();
      Files.delete(file);
    }
  }

  private static String outcome(Case c, Path file) {
    try {
      c.read().run(file);
      return "NONE";
    } catch (IOException e) {
      return e.getClass().getName() + " " + oneLine(e.getMessage());
    } catch (OutOfMemoryError e) {
      return "OOM " + oneLine(e.getMessage());
    } catch (RuntimeException e) {
      return "UNEXPECTED " + e.getClass().getName() + " " + oneLine(e.getMessage());
    }
  }

  private static String oneLine(String s) {
    return String.valueOf(s).replace('\n', ' ');
  }

  private static void streamNpz(Path file) throws IOException {
    try (NpzReader r = NpzReader.open(file, NpzReadOptions.defaults())) {
      ParametersCodec.writeNumpyNdarray(r, OutputStream.nullOutputStream());
    }
  }

  private static void readModel(Path file) throws IOException {
    try (ModelFile m = ModelFile.open(file)) {
      m.newest().parameters();
    }
  }

  private static byte[] npyHeader(String descr, String shape) {
    String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
    out.write(text.length & 0xFF);
    out.write(text.length >>> 8);
    out.writeBytes(text);
    return out.toByteArray();
  }

  private static byte[] npy(String descr, String shape, int dataBytes) {
    byte[] header = npyHeader(descr, shape);
    byte[] out = new byte[header.length + dataBytes];
    System.arraycopy(header, 0, out, 0, header.length);
    return out;
  }

  private static byte[] idxHeader(long n) {
    return new byte[] {0, 0, 0x08, 1, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
  }

  /** Gzips {@code prefix} then {@code bytes} bytes of {@code pattern} (zeros when null) into {@code f}. */
  private static void gzip(Path f, byte[] prefix, long bytes, byte[] pattern) throws IOException {
    byte[] block = new byte[1 << 16];
    if (pattern != null) {
      for (int i = 0; i < block.length; i++) {
        block[i] = pattern[i % pattern.length];
      }
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f), 1 << 16)) {
      out.write(prefix);
      for (long left = bytes; left > 0; left -= block.length) {
        out.write(block, 0, (int) Math.min(block.length, left));
      }
    }
  }

  /** A proto.ndarray Value: dtype float, shape [1000000, 1000000], no data. */
  private static byte[] protoValue() {
    ByteArrayOutputStream shape = new ByteArrayOutputStream();
    varint(shape, 1_000_000);
    varint(shape, 1_000_000);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x08);
    out.write(1);
    varint(out, (16 << 3) | 2);
    varint(out, shape.size());
    out.writeBytes(shape.toByteArray());
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** The exception type each case must end in, and a fragment of its message saying why. */
  public static Map<String, List<String>> expected() {
    String npy = "io.tributary.tensor.npy.NpyException";
    String bomb = "io.tributary.format.ZipBombException";
    String data = "io.tributary.data.DatasetFormatException";
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("npy-huge-declared-shape", List.of(npy, "needs 8000000000000 bytes"));
    m.put("npy-65-dimensions", List.of(npy, "more than numpy's 64 dimensions"));
    m.put("npz-huge-declared-shape", List.of(npy, "NpzReadOptions.maxExpansionRatio"));
    m.put("npz-deflate-bomb", List.of(npy, "NpzReadOptions.maxExpansionRatio"));
    m.put("npz-overlapping-entries", List.of(npy, "overlap entry"));
    m.put("npz-stream-huge-declared-shape", List.of(npy, "NpzReadOptions.maxExpansionRatio"));
    m.put("npz-stream-deflate-bomb", List.of(npy, "NpzReadOptions.maxExpansionRatio"));
    m.put("npz-stream-overlapping-entries", List.of(npy, "overlap entry"));
    m.put("model-zip-deflate-bomb", List.of(bomb, "a ratio over 100:1"));
    m.put("model-zip-many-small-bombs", List.of(bomb, "ReadOptions.maxExpansionRatio"));
    m.put("model-zip-overlapping-bombs", List.of(bomb, "ReadOptions.maxExpansionRatio"));
    m.put("model-zip-overlapping-entries", List.of(bomb, "overlaps entry"));
    m.put("idx-gzip-bomb", List.of(data, "GzipLimits.maxExpansionRatio"));
    m.put("idx-gzip-header-lies", List.of(data, "gzip trailer records"));
    m.put("csv-gzip-bomb", List.of(data, "GzipLimits.maxExpansionRatio"));
    m.put("proto-ndarray-huge-declared-shape",
        List.of("io.tributary.tensor.serialization.SerializationException", "needs 1000000000000"));
    return m;
  }
}
