package io.tributary.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One file's rows, grouped by client id, spilled as float32 to a temporary file and read back
 * client by client: what {@link CsvClients} and {@link ParquetClients} share once a row's client
 * id, label and features are read. Only the index (a few numbers per client) and the test set are
 * held; the spill file is deleted when closed.
 */
final class ClientRows implements AutoCloseable {
  /** The buffer of spill reads and writes. */
  private static final int IO_BUFFER = 1 << 20;

  private final String name;
  private final int features;
  private final int numClasses;
  private final FileChannel spill;
  private final int rowBytes;
  private final long[][] runs;
  private final int[] runCounts;
  private final int[] sizes;
  private final int[][] held;
  private Dataset test;

  private ClientRows(String name, int features, int numClasses, FileChannel spill, long[][] runs,
      int[] runCounts, int[] sizes, int[][] held) {
    this.name = name;
    this.features = features;
    this.numClasses = numClasses;
    this.spill = spill;
    this.rowBytes = features * Float.BYTES + Integer.BYTES;
    this.runs = runs;
    this.runCounts = runCounts;
    this.sizes = sizes;
    this.held = held;
  }

  String name() {
    return name;
  }

  int clients() {
    return sizes.length;
  }

  int features() {
    return features;
  }

  int numClasses() {
    return numClasses;
  }

  Dataset test() {
    return test;
  }

  int rows(int k) {
    return sizes[k];
  }

  /** Client {@code k}'s training rows, read from the spill file. */
  Dataset client(int k) throws IOException {
    Objects.checkIndex(k, sizes.length);
    int[] out = held[k];
    int n = sizes[k] - out.length;
    float[] x = new float[Math.multiplyExact(n, features)];
    int[] y = new int[n];
    int position = 0;
    int skip = 0;
    int row = 0;
    ByteBuffer buf = buffer(rowBytes);
    for (int r = 0; r < runCounts[k]; r++) {
      long start = runs[k][2 * r];
      long count = runs[k][2 * r + 1];
      long done = 0;
      while (done < count) {
        int take = (int) Math.min(count - done, buf.capacity() / rowBytes);
        buf.clear().limit(take * rowBytes);
        readFully(buf, (start + done) * rowBytes);
        buf.flip();
        for (int i = 0; i < take; i++, position++) {
          if (skip < out.length && out[skip] == position) {
            skip++;
            buf.position(buf.position() + rowBytes);
            continue;
          }
          buf.asFloatBuffer().get(x, row * features, features);
          buf.position(buf.position() + features * Float.BYTES);
          y[row++] = buf.getInt();
        }
        done += take;
      }
    }
    return Dataset.fromArrays(name + " client " + k, x, new long[] {features}, y, numClasses);
  }

  private void readFully(ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = spill.read(buf, pos);
      if (n < 0) {
        throw new IOException(name + ": the spill file ended early");
      }
      pos += n;
    }
  }

  /** Deletes the spill file. */
  @Override
  public void close() throws IOException {
    spill.close();
  }

  /** Pools every client's held-out rows, in the file's order. */
  private Dataset heldOutRows(int total) throws IOException {
    long[] at = new long[total];
    int n = 0;
    for (int k = 0; k < sizes.length; k++) {
      int position = 0;
      int next = 0;
      for (int r = 0; r < runCounts[k] && next < held[k].length; r++) {
        long start = runs[k][2 * r];
        long count = runs[k][2 * r + 1];
        while (next < held[k].length && held[k][next] < position + count) {
          at[n++] = start + (held[k][next++] - position);
        }
        position += (int) count;
      }
    }
    Arrays.sort(at);
    float[] x = new float[total * features];
    int[] y = new int[total];
    ByteBuffer buf = buffer(rowBytes);
    long windowStart = -1;
    long windowRows = 0;
    for (int i = 0; i < total; i++) {
      long row = at[i];
      if (windowStart < 0 || row >= windowStart + windowRows) {
        windowStart = row;
        buf.clear();
        long end = spill.size() / rowBytes;
        windowRows = Math.min(buf.capacity() / rowBytes, end - row);
        buf.limit((int) windowRows * rowBytes);
        readFully(buf, row * rowBytes);
      }
      int offset = (int) (row - windowStart) * rowBytes;
      buf.position(offset);
      buf.asFloatBuffer().get(x, i * features, features);
      y[i] = buf.getInt(offset + features * Float.BYTES);
    }
    return Dataset.fromArrays(name + " test", x, new long[] {features}, y, numClasses);
  }

  /** {@code floor(fraction * n)} of {@code 0..n-1} chosen by {@code random}, sorted. */
  static int[] heldOut(int n, double fraction, SplittableRandom random) {
    int t = (int) Math.floor(fraction * n);
    int[] p = Permutations.permutation(n, random);
    int[] out = Arrays.copyOf(p, t);
    Arrays.sort(out);
    return out;
  }

  private static ByteBuffer buffer(int rowBytes) {
    return ByteBuffer.allocate(Math.max(rowBytes, IO_BUFFER / rowBytes * rowBytes))
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * A feature value as float32, or the error naming {@code column} at {@code row} of
   * {@code source} when it is not finite or out of float32's range.
   */
  static float feature(double v, String column, String text, String source, long row)
      throws DatasetFormatException {
    if (!Double.isFinite(v)) {
      throw new DatasetFormatException(source, row, column + ": '" + clip(text)
          + "' is not a finite number");
    }
    float f = (float) v;
    if (!Float.isFinite(f)) {
      throw new DatasetFormatException(source, row, column + ": '" + clip(text)
          + "' is out of float32 range");
    }
    return f;
  }

  /**
   * A label, or the error naming {@code column} at {@code row} of {@code source} when it is not
   * a whole number in {@code [0, limit)}; {@code numClasses} is 0 when the classes are inferred
   * (then {@code limit} is the bound on them).
   */
  static int label(double v, String column, String text, int numClasses, int limit,
      String source, long row) throws DatasetFormatException {
    String where = column + ": '" + clip(text) + "' ";
    if (v != Math.rint(v) || v < 0) {
      throw new DatasetFormatException(source, row, where + "is not a whole number >= 0");
    }
    if (v >= limit) {
      throw new DatasetFormatException(source, row, where + "is not below "
          + (numClasses > 0 ? "numClasses " : "maxInferredClasses ") + limit);
    }
    return (int) v;
  }

  static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  /**
   * Takes rows one at a time, as a file is read, and writes them to the spill file; {@link
   * #finish} indexes them.
   */
  static final class Writer implements AutoCloseable {
    private final String source;
    private final int features;
    private final int maxClients;
    private final FileChannel spill;
    private final int rowBytes;
    private final ByteBuffer out;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> order = new ArrayList<>();
    private long spillAt;
    private long[][] runs = new long[16][];
    private int[] runCounts = new int[16];
    private int[] sizes = new int[16];
    private int last = -1;
    private long rows;
    private int maxLabel = -1;
    private boolean finished;

    /**
     * A writer of rows of {@code features} features, to a spill file in {@code directory} (the
     * JVM's temporary directory when null).
     */
    Writer(String source, int features, int maxClients, Path directory) throws IOException {
      this.source = source;
      this.features = features;
      this.maxClients = maxClients;
      this.rowBytes = features * Float.BYTES + Integer.BYTES;
      this.out = buffer(rowBytes);
      Path dir = directory != null ? directory : Path.of(System.getProperty("java.io.tmpdir"));
      Path spillFile = Files.createTempFile(dir, "tributary-rows-", ".spill");
      // Unlinked as soon as it is open (on POSIX), so that no run leaves it behind.
      this.spill = FileChannel.open(spillFile, StandardOpenOption.READ,
          StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
    }

    /**
     * One row: its client's id, its label (checked by the caller) and its features.
     *
     * @throws DatasetFormatException naming {@code row} when the client id is empty, there are
     *     too many clients, or the client has too many rows
     */
    void add(String id, int label, float[] x, long row) throws IOException {
      if (id.isEmpty()) {
        throw new DatasetFormatException(source, row, "the client id is empty");
      }
      Integer known = ids.get(id);
      int k;
      if (known == null) {
        if (ids.size() == maxClients) {
          throw new DatasetFormatException(source, row, "more than " + maxClients + " clients");
        }
        k = ids.size();
        ids.put(id, k);
        order.add(id);
        if (k == sizes.length) {
          runs = Arrays.copyOf(runs, k * 2);
          runCounts = Arrays.copyOf(runCounts, k * 2);
          sizes = Arrays.copyOf(sizes, k * 2);
        }
        runs[k] = new long[2];
      } else {
        k = known;
      }
      if (sizes[k] == Dataset.MAX_EXAMPLES) {
        throw new DatasetFormatException(source, row, "client '" + clip(id) + "' has more than "
            + Dataset.MAX_EXAMPLES + " rows");
      }
      maxLabel = Math.max(maxLabel, label);
      if (out.remaining() < rowBytes) {
        spillAt = write(spill, out, spillAt);
      }
      for (int f = 0; f < features; f++) {
        out.putFloat(x[f]);
      }
      out.putInt(label);
      // Adjacent rows of one client extend its last run; a grouped file has one run each.
      if (k == last) {
        runs[k][2 * runCounts[k] - 1]++;
      } else {
        if (2 * runCounts[k] == runs[k].length) {
          runs[k] = Arrays.copyOf(runs[k], runs[k].length * 2);
        }
        runs[k][2 * runCounts[k]] = rows;
        runs[k][2 * runCounts[k] + 1] = 1;
        runCounts[k]++;
      }
      sizes[k]++;
      last = k;
      rows++;
    }

    /**
     * The rows indexed: {@code floor(testFraction * n)} of each client's n rows, chosen from
     * {@code seed}, are the test set. The spill file passes to the result.
     *
     * @param numClasses the class count, or 0 to infer the largest label plus one
     * @throws DatasetFormatException when there are no rows or no test rows
     */
    ClientRows finish(String name, int numClasses, double testFraction, long seed)
        throws IOException {
      spillAt = write(spill, out, spillAt);
      if (rows == 0) {
        throw new DatasetFormatException(source, "no data rows");
      }
      int clients = ids.size();
      int classes = numClasses > 0 ? numClasses : maxLabel + 1;
      int[][] held = new int[clients][];
      long testRows = 0;
      for (int k = 0; k < clients; k++) {
        held[k] = heldOut(sizes[k], testFraction,
            new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (k + 1))));
        testRows += held[k].length;
      }
      if (testRows == 0) {
        throw new DatasetFormatException(source, "no test rows: a test fraction of "
            + testFraction + " of each client's rows rounds down to 0; raise the test fraction");
      }
      if (testRows * features > Integer.MAX_VALUE - 8) {
        throw new DatasetFormatException(source, testRows + " test rows of " + features
            + " features are more than one test set holds; lower the test fraction");
      }
      ClientRows result = new ClientRows(name, features, classes, spill,
          Arrays.copyOf(runs, clients), Arrays.copyOf(runCounts, clients),
          Arrays.copyOf(sizes, clients), held);
      result.test = result.heldOutRows((int) testRows);
      finished = true;
      return result;
    }

    /** Deletes the spill file unless {@link #finish} passed it on. */
    @Override
    public void close() throws IOException {
      if (!finished) {
        spill.close();
      }
    }

    private static long write(FileChannel spill, ByteBuffer out, long at) throws IOException {
      out.flip();
      long pos = at;
      while (out.hasRemaining()) {
        pos += spill.write(out, pos);
      }
      out.clear();
      return pos;
    }
  }
}
