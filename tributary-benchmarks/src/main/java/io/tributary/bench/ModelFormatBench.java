package io.tributary.bench;

import io.tributary.format.ArrayInfo;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.SequencedMap;
import java.util.regex.Pattern;

/**
 * The model file's large-model and speed figures (issue 6), as one integration run rather than
 * unit tests, since they need gigabytes of memory and disk.
 *
 * <ul>
 *   <li>{@code speed DIR}: 100 float32 parameters, 1 GB in all: save vs writing the same bytes raw
 *       (both fsynced, into a new file and then over the existing one), load vs reading them raw,
 *       in the same run, alternating, median of 7; each timed side starts after {@code sync} and
 *       once the machine's dirty pages are written back ({@link PageCacheSettler}), and the
 *       ratios are also given per order of the sides, so that an order effect shows.
 *   <li>{@code load DIR}: only the load vs raw read part of {@code speed}, median of 11 (a minute).
 *   <li>{@code large DIR}: one float32 parameter over 2 GiB, saved, then loaded and memory-mapped.
 *   <li>{@code sparse DIR}: a 10 GB file; opening it and reading one parameter, with the time, the
 *       bytes this process read ({@code /proc/self/io}) and the bytes of the file it mapped in
 *       ({@code /proc/self/smaps}).
 * </ul>
 * Usage: {@code java -Xms10g -Xmx10g -XX:+AlwaysPreTouch -cp benchmarks.jar io.tributary.bench.ModelFormatBench MODE DIR [MB]}
 * (MB: the size of {@code speed} and {@code load}, default 1000). System properties:
 * {@code tributary.bench.settle} (default true; false times without settling, to compare),
 * {@code tributary.bench.settleMb} (the Dirty + Writeback counted as settled, default 32) and
 * {@code tributary.bench.settleTimeoutS} (default 30). Files are deleted afterwards.
 */
public final class ModelFormatBench {
  private static final int SLICE = 4 << 20;
  /** The line that opens a mapping in /proc/self/smaps: its address range, then the rest. */
  private static final Pattern MAPPING_LINE = Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

  private ModelFormatBench() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[2].matches("[1-9][0-9]{0,5}"))) {
      System.err.println("usage: ModelFormatBench speed|load|large|sparse|all DIR [MB (1-999999)]");
      System.exit(2);
    }
    Path dir = Files.createDirectories(Path.of(args[1]));
    long megabytes = args.length == 3 ? Long.parseLong(args[2]) : 1000;
    PageCacheSettler settler = new PageCacheSettler(
        Boolean.parseBoolean(System.getProperty("tributary.bench.settle", "true")),
        Long.getLong("tributary.bench.settleMb", 32) << 20,
        Double.parseDouble(System.getProperty("tributary.bench.settleTimeoutS", "30")));
    switch (args[0]) {
      case "speed" -> speed(dir, true, megabytes, settler);
      case "load" -> speed(dir, false, megabytes, settler);
      case "large" -> large(dir);
      case "sparse" -> sparse(dir);
      case "all" -> {
        speed(dir, true, megabytes, settler);
        large(dir);
        sparse(dir);
      }
      default -> {
        System.err.println("unknown mode " + args[0]);
        System.exit(2);
      }
    }
  }

  /** A float32 tensor of {@code count} elements filled with a cheap non-constant pattern. */
  static Tensor pattern(long count, int seed) {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(count));
    int i = seed;
    for (ByteBuffer buf : b.writableBuffers()) {
      while (buf.remaining() >= 4) {
        buf.putFloat(i++ * 1.0e-3f);
      }
    }
    return b.build();
  }

  // ---------------------------------------------------------------- speed

  static void speed(Path dir, boolean withSaves, long megabytes, PageCacheSettler settler)
      throws IOException {
    int params = 100;
    long perParam = megabytes * 1_000_000L / params / 4;
    SequencedMap<String, Tensor> tensors = new LinkedHashMap<>();
    for (int i = 0; i < params; i++) {
      tensors.put("layer" + i + "/w", pattern(perParam, i));
    }
    long bytes = params * perParam * 4;
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("round1", TagContents.of(tensors));
    Path raw = dir.resolve("raw.bin");
    Path model = dir.resolve("model.zip");
    int reps = withSaves ? 7 : 11;
    double[] rawWrite = new double[reps];
    double[] save = new double[reps];
    double[] rawReplace = new double[reps];
    double[] replace = new double[reps];
    double[] rawRead = new double[reps];
    double[] load = new double[reps];
    boolean[] rawFirstAt = new boolean[reps];
    String loadBefore = loadAverage();
    if (!withSaves) {
      writeRaw(raw, tensors.values());
      ModelWriter.save(model, tags);
    }
    for (int r = 0; r < reps + 1; r++) {
      boolean rawFirst = r % 2 == 0;
      double[] w = {0, 0};
      double[] rp = {0, 0};
      if (withSaves) {
        // Both sides write a new file: the last run's are deleted first, outside the timing.
        Files.deleteIfExists(raw);
        Files.deleteIfExists(model);
        w = pair(settler, rawFirst, () -> writeRaw(raw, tensors.values()), () -> ModelWriter.save(model, tags));
        // Then both replace their file atomically, so old and new coexist until the rename.
        rp = pair(settler, rawFirst, () -> replaceRaw(raw, tensors.values()), () -> ModelWriter.save(model, tags));
      }
      double[] rd = pair(settler, rawFirst, () -> {
        if (readRaw(raw, params, perParam * 4).size() != params) {
          throw new IllegalStateException("wrong array count");
        }
      }, () -> {
        try (ModelFile m = ModelFile.open(model)) {
          if (m.newest().parameters().size() != params) {
            throw new IllegalStateException("wrong parameter count");
          }
        }
      });
      if (r > 0) { // the first round warms up the JIT and the page cache
        rawWrite[r - 1] = w[0];
        save[r - 1] = w[1];
        rawReplace[r - 1] = rp[0];
        replace[r - 1] = rp[1];
        rawRead[r - 1] = rd[0];
        load[r - 1] = rd[1];
        rawFirstAt[r - 1] = rawFirst;
      }
    }
    String loadAfter = loadAverage();
    try (ModelFile m = ModelFile.open(model)) {
      if (!m.newest().parameter("layer42/w").equals(tensors.get("layer42/w"))) {
        throw new IllegalStateException("round trip failed");
      }
    }
    double mb = bytes / 1e6;
    System.out.printf(Locale.ROOT, "speed: %d float32 parameters, %.0f MB (file %.0f MB), median of %d alternating runs, reads from page cache%n",
        params, mb, Files.size(model) / 1e6, reps);
    System.out.printf(Locale.ROOT, "  machine load (/proc/loadavg) before: %s; after: %s%n", loadBefore, loadAfter);
    System.out.printf(Locale.ROOT, "  page cache: %s%n", settler.summary());
    if (withSaves) {
      System.out.printf(Locale.ROOT, "  raw write+fsync %.3f s (%.0f MB/s) | save %.3f s (%.0f MB/s) | save speed = %.0f%% of raw%n",
          median(rawWrite), mb / median(rawWrite), median(save), mb / median(save), 100 * median(rawWrite) / median(save));
      System.out.printf(Locale.ROOT,
          "  raw replace (temp file, fsync, rename, folder fsync) %.3f s (%.0f MB/s) | save over the existing file %.3f s (%.0f MB/s) = %.0f%% of raw replace, %.0f%% of raw write%n",
          median(rawReplace), mb / median(rawReplace), median(replace), mb / median(replace),
          100 * median(rawReplace) / median(replace), 100 * median(rawWrite) / median(replace));
    }
    System.out.printf(Locale.ROOT, "  raw read        %.3f s (%.0f MB/s) | load %.3f s (%.0f MB/s) | load speed = %.0f%% of raw%n",
        median(rawRead), mb / median(rawRead), median(load), mb / median(load), 100 * median(rawRead) / median(load));
    if (withSaves) {
      System.out.printf(Locale.ROOT, "  per-run ratios save/raw: %s (median %.0f%%); replace/raw replace: %s (median %.0f%%)%n",
          ratios(rawWrite, save), medianRatio(rawWrite, save), ratios(rawReplace, replace), medianRatio(rawReplace, replace));
    }
    System.out.printf(Locale.ROOT, "  per-run ratios load/raw: %s (median %.0f%%)%n", ratios(rawRead, load), medianRatio(rawRead, load));
    if (withSaves) {
      System.out.printf(Locale.ROOT, "  median ratio by order (raw first | ours first): save %s; replace %s; load %s%n",
          byOrder(rawWrite, save, rawFirstAt), byOrder(rawReplace, replace, rawFirstAt), byOrder(rawRead, load, rawFirstAt));
    } else {
      System.out.printf(Locale.ROOT, "  median ratio by order (raw first | ours first): load %s%n", byOrder(rawRead, load, rawFirstAt));
    }
    Files.deleteIfExists(raw);
    Files.deleteIfExists(model);
  }

  /**
   * Times {@code raw} and {@code ours}, {@code raw} first when {@code rawFirst}, each after a GC
   * and after the settler has let the disk writes before it finish, so that neither side pays
   * for the other's garbage or writeback.
   */
  static double[] pair(PageCacheSettler settler, boolean rawFirst, Work raw, Work ours) throws IOException {
    double[] t = new double[2];
    for (int k = 0; k < 2; k++) {
      System.gc();
      settler.settle();
      if ((k == 0) == rawFirst) {
        t[0] = time(raw);
      } else {
        t[1] = time(ours);
      }
    }
    return t;
  }

  /**
   * Replaces {@code file} with the same bytes the way an atomic save does, without the format:
   * a temporary file beside it, fsync, rename over it, fsync of the folder.
   */
  static void replaceRaw(Path file, Iterable<Tensor> tensors) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".raw.tmp");
    writeRaw(temp, tensors);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel d = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  /** The first three fields of /proc/loadavg (1, 5 and 15 minute averages), or "n/a". */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a"; // not Linux
    }
  }

  /** The same bytes, in the same 4 MiB slices the writer uses, to a plain file, then fsync. */
  static void writeRaw(Path file, Iterable<Tensor> tensors) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (Tensor t : tensors) {
        for (ByteBuffer b : t.dataBuffers()) {
          while (b.hasRemaining()) {
            ByteBuffer s = b.slice(b.position(), Math.min(SLICE, b.remaining()));
            while (s.hasRemaining()) {
              ch.write(s);
            }
            b.position(b.position() + s.capacity());
          }
        }
      }
      ch.force(true);
    }
  }

  /**
   * Reads the raw file into freshly allocated arrays of the parameters' sizes, and keeps them all
   * until the end, as loading does: discarding each array at once would let the JVM reuse the same
   * memory for the next, sparing the raw side the cost of touching fresh memory that loading pays.
   */
  static List<ByteBuffer> readRaw(Path file, int count, long each) throws IOException {
    List<ByteBuffer> kept = new ArrayList<>(count);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long at = 0;
      for (int i = 0; i < count; i++) {
        ByteBuffer dst = ByteBuffer.wrap(new byte[(int) each]);
        kept.add(dst);
        while (dst.hasRemaining()) {
          ByteBuffer s = dst.slice(dst.position(), Math.min(SLICE, dst.remaining()));
          while (s.hasRemaining()) {
            at += ch.read(s, at);
          }
          dst.position(dst.position() + s.capacity());
        }
      }
    }
    return kept;
  }

  // ---------------------------------------------------------------- large

  static void large(Path dir) throws IOException {
    long count = (5L << 30) / 2 / 4; // 2.5 GiB of float32
    Tensor big = pattern(count, 7);
    Path model = dir.resolve("large.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("big", TagContents.builder().parameter("embedding", big).parameter("bias", pattern(10, 1)).build());
    double save = time(() -> ModelWriter.save(model, tags));
    System.out.printf(Locale.ROOT, "large: one float32 parameter of %.2f GiB (%d elements); file %.2f GiB%n",
        big.byteSize() / (double) (1L << 30), count, Files.size(model) / (double) (1L << 30));
    System.out.printf(Locale.ROOT, "  save %.1f s%n", save);
    try (ModelFile m = ModelFile.open(model)) {
      ModelTag t = m.newest();
      ArrayInfo info = t.parameterInfo("embedding");
      long[] sampled = {0, count / 3, count / 2 + 1, count - 1};
      Tensor[] mapped = new Tensor[1];
      double map = time(() -> mapped[0] = t.mapParameter("embedding"));
      for (long i : sampled) {
        if (Float.floatToIntBits(mapped[0].getFloat(i)) != Float.floatToIntBits(big.getFloat(i))) {
          throw new IllegalStateException("mapped element " + i + " differs");
        }
      }
      boolean mappedEqual = mapped[0].equals(big);
      Tensor[] loaded = new Tensor[1];
      double load = time(() -> loaded[0] = t.parameter("embedding"));
      boolean loadedEqual = loaded[0].equals(big);
      System.out.printf(Locale.ROOT, "  header: %s %s in %s%n", info.dtype(), info.shape(), info.entry());
      System.out.printf(Locale.ROOT, "  map %.3f s, all elements equal: %s; load (CRC-32 checked) %.1f s, all elements equal: %s%n",
          map, mappedEqual, load, loadedEqual);
      if (!mappedEqual || !loadedEqual) {
        throw new IllegalStateException("large parameter did not round-trip");
      }
    }
    Files.delete(model);
  }

  // ---------------------------------------------------------------- sparse

  static void sparse(Path dir) throws IOException {
    Tensor gig = pattern(250_000_000L, 3); // 1 GB
    Tensor head = pattern(1_000_000L, 5); // 4 MB
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    for (int i = 0; i < 10; i++) {
      params.put("block" + i + "/w", gig);
    }
    params.put("head/w", head);
    Path model = dir.resolve("ten-gb.zip");
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("v1", TagContents.of(params));
    double save = time(() -> ModelWriter.save(model, tags));
    long size = Files.size(model);
    // Warm up class loading and the JIT on a small file, so /proc/self/io counts only the model.
    Path small = dir.resolve("warmup.zip");
    SequencedMap<String, TagContents> warm = new LinkedHashMap<>();
    warm.put("v1", TagContents.builder().parameter("head/w", head).parameter("x", pattern(10, 1)).build());
    ModelWriter.save(small, warm);
    for (int i = 0; i < 3; i++) {
      readOne(small, "head/w");
    }
    Files.delete(small);
    System.out.printf(Locale.ROOT, "sparse: file of %.2f GB (10 x 1 GB + one 4 MB parameter), saved in %.1f s%n",
        size / 1e9, save);
    System.gc(); // unmaps what earlier loads mapped, so the counts below see only this file's
    for (String name : List.of("head/w", "block7/w")) {
      // smaps is read outside the rchar window: reading it is itself a read().
      long mappedBefore = mappedBytes(model);
      long[] before = procIo();
      long start = System.nanoTime();
      long got = readOne(model, name);
      double secs = (System.nanoTime() - start) / 1e9;
      long[] after = procIo();
      long mapped = mappedBytes(model) - mappedBefore;
      System.out.printf(Locale.ROOT,
          "  open + read '%s' (%d bytes of data): %.3f s; read() syscall bytes (rchar) %d, pages of the file mapped in (smaps Rss) %d, storage reads (read_bytes) %d%n",
          name, got, secs, after[0] - before[0], mapped, after[1] - before[1]);
    }
    Files.delete(model);
  }

  private static long readOne(Path file, String name) throws IOException {
    try (ModelFile m = ModelFile.open(file)) {
      return m.newest().parameter(name).byteSize();
    }
  }

  /**
   * The bytes of {@code file} that this process has mapped in (the Rss of its mappings in
   * /proc/self/smaps), or -1 where there is none. Loading copies array data from a mapping, so
   * these bytes, not rchar, show how much of the file a load touched; the mappings last until
   * the garbage collector drops them.
   */
  static long mappedBytes(Path file) {
    String name = file.toAbsolutePath().toString();
    long kb = 0;
    boolean inFile = false;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
        if (MAPPING_LINE.matcher(line).lookingAt()) {
          inFile = line.endsWith(" " + name);
        } else if (inFile && line.startsWith("Rss:")) {
          kb += Long.parseLong(line.substring(4).replace("kB", "").trim());
        }
      }
    } catch (IOException e) {
      return -1; // not Linux
    }
    return kb * 1024;
  }

  /** This process's {rchar, read_bytes} from /proc/self/io, or -1s where there is none. */
  static long[] procIo() {
    long[] out = {-1, -1};
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        String[] kv = line.split(":\\s*");
        if (kv[0].equals("rchar")) {
          out[0] = Long.parseLong(kv[1].trim());
        } else if (kv[0].equals("read_bytes")) {
          out[1] = Long.parseLong(kv[1].trim());
        }
      }
    } catch (IOException e) {
      // Not Linux: the figures are printed as -1.
    }
    return out;
  }

  // ---------------------------------------------------------------- helpers

  @FunctionalInterface
  interface Work {
    void run() throws IOException;
  }

  static double time(Work w) throws IOException {
    long start = System.nanoTime();
    w.run();
    return (System.nanoTime() - start) / 1e9;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double medianRatio(double[] raw, double[] ours) {
    double[] r = new double[raw.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = 100 * raw[i] / ours[i];
    }
    return median(r);
  }

  /** The median ratio of the runs in which raw went first, then of those in which ours did. */
  static String byOrder(double[] raw, double[] ours, boolean[] rawFirst) {
    List<String> out = new ArrayList<>();
    for (boolean first : new boolean[] {true, false}) {
      List<Double> r = new ArrayList<>();
      for (int i = 0; i < raw.length; i++) {
        if (rawFirst[i] == first) {
          r.add(100 * raw[i] / ours[i]);
        }
      }
      out.add(r.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f%% (%d)",
          median(r.stream().mapToDouble(Double::doubleValue).toArray()), r.size()));
    }
    return String.join(" | ", out);
  }

  static String ratios(double[] raw, double[] ours) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < raw.length; i++) {
      out.add(String.format(Locale.ROOT, "%.0f%%", 100 * raw[i] / ours[i]));
    }
    return String.join(" ", out);
  }
}
