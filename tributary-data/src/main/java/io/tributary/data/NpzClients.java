package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The clients of a directory of {@code .npz} files, one per client, each holding {@code x}
 * (features {@code [n, ...]}, any real type, stored as float32) and {@code y} (labels {@code [n]},
 * whole numbers). Clients are the files in name order; a file named {@code test.npz} is the test
 * set instead, and without one {@code floor(testFraction * n)} of each client's examples, chosen
 * from the seed, are held out and pooled as the test set.
 *
 * <p>{@link #open} reads every file once and checks it before any training starts: {@code x} and
 * {@code y} present, of equal length, the same example shape in every file, finite features,
 * labels whole numbers below the class count. A client is read again from its file each time it
 * is asked for, so only one client's examples are held at a time.
 */
public final class NpzClients implements FederatedSource {
  /** The file of the test set, which is not a client. */
  public static final String TEST_FILE = "test.npz";

  private final String name;
  private final List<Path> files;
  private final long[] exampleShape;
  private final int numClasses;
  private final int[][] held;
  private final Dataset test;

  private NpzClients(String name, List<Path> files, long[] exampleShape, int numClasses,
      int[][] held, Dataset test) {
    this.name = name;
    this.files = files;
    this.exampleShape = exampleShape;
    this.numClasses = numClasses;
    this.held = held;
    this.test = test;
  }

  /**
   * The client files of {@code dir}: every {@code *.npz} but {@link #TEST_FILE}, in name order.
   *
   * @throws IOException when the directory cannot be listed or holds no client file
   */
  public static List<Path> clientFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new DatasetFormatException(dir.toString(), "is not a directory");
    }
    List<Path> out;
    try (Stream<Path> s = Files.list(dir)) {
      out = new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(".npz")
          && !p.getFileName().toString().equals(TEST_FILE) && Files.isRegularFile(p)).toList());
    }
    out.sort(Path::compareTo);
    if (out.isEmpty()) {
      throw new DatasetFormatException(dir.toString(), "holds no client file (*.npz besides "
          + TEST_FILE + ")");
    }
    return out;
  }

  /**
   * Reads and checks every file of {@code dir}.
   *
   * @param numClasses the class count, or 0 to infer the largest label plus one
   * @param testFraction the share of each client's examples held out when there is no {@code
   *     test.npz}, in (0, 1)
   * @param seed the seed of the held-out examples
   * @throws DatasetFormatException naming the file and what is wrong
   * @throws IOException when a file cannot be read
   */
  public static NpzClients open(Path dir, int numClasses, double testFraction, long seed)
      throws IOException {
    if (!(testFraction > 0 && testFraction < 1)) {
      throw new IllegalArgumentException("testFraction must be in (0, 1), got " + testFraction);
    }
    List<Path> files = clientFiles(dir);
    Path testFile = dir.resolve(TEST_FILE);
    boolean ownTest = Files.isRegularFile(testFile);
    long[] shape = null;
    int maxLabel = -1;
    List<Raw> raws = new ArrayList<>();
    for (Path f : files) {
      Raw r = read(f, shape);
      shape = r.shape;
      maxLabel = Math.max(maxLabel, r.maxLabel);
      // Only the label range and size are kept: a client is read again when asked for.
      raws.add(new Raw(null, null, r.shape, r.maxLabel, r.n));
    }
    Raw testRaw = ownTest ? read(testFile, shape) : null;
    if (testRaw != null) {
      maxLabel = Math.max(maxLabel, testRaw.maxLabel);
    }
    int classes = numClasses > 0 ? numClasses : maxLabel + 1;
    if (maxLabel >= classes) {
      throw new DatasetFormatException(dir.toString(), "label " + maxLabel
          + " is not below the class count " + classes);
    }
    int[][] held = new int[files.size()][];
    String name = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    Dataset test;
    if (ownTest) {
      for (int k = 0; k < held.length; k++) {
        held[k] = new int[0];
      }
      test = testRaw.dataset(name + " test", classes, new int[0], false);
    } else {
      List<Dataset> parts = new ArrayList<>();
      for (int k = 0; k < held.length; k++) {
        held[k] = ClientRows.heldOut(raws.get(k).n, testFraction,
            new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (k + 1))));
        if (held[k].length > 0) {
          parts.add(read(files.get(k), shape).dataset(name + " test", classes, held[k], true));
        }
      }
      if (parts.isEmpty()) {
        throw new DatasetFormatException(dir.toString(), "no test examples: a test fraction of "
            + testFraction + " of each client's examples rounds down to 0; add " + TEST_FILE
            + " or raise the test fraction");
      }
      test = Dataset.concat(name + " test", parts);
    }
    for (int k = 0; k < held.length; k++) {
      if (raws.get(k).n - held[k].length < 1) {
        throw new DatasetFormatException(files.get(k).toString(), "has no training examples");
      }
    }
    return new NpzClients(name, List.copyOf(files), shape, classes, held, test);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int clients() {
    return files.size();
  }

  @Override
  public Dataset test() {
    return test;
  }

  @Override
  public long[] exampleShape() {
    return exampleShape.clone();
  }

  @Override
  public int numClasses() {
    return numClasses;
  }

  /** Client {@code k}'s file. */
  public Path file(int k) {
    return files.get(k);
  }

  /**
   * Client {@code k}'s training examples, read from its file and checked again.
   *
   * @throws IOException when the file cannot be read or has changed so that it no longer fits
   */
  @Override
  public Dataset client(int k) throws IOException {
    Objects.checkIndex(k, files.size());
    Raw r = read(files.get(k), exampleShape);
    if (r.maxLabel >= numClasses) {
      throw new DatasetFormatException(files.get(k).toString(), "label " + r.maxLabel
          + " is not below the class count " + numClasses);
    }
    return r.dataset(name + " client " + k, numClasses, held[k], false);
  }

  /** One file's arrays, checked. */
  private record Raw(float[] x, long[] y, long[] shape, int maxLabel, int n) {
    /** The examples at {@code rows} ({@code keep}) or all but them. */
    Dataset dataset(String name, int classes, int[] rows, boolean keep) {
      int per = x.length / Math.max(n, 1);
      int count = keep ? rows.length : n - rows.length;
      float[] fx = new float[Math.multiplyExact(count, per)];
      int[] fy = new int[count];
      int out = 0;
      int next = 0;
      for (int i = 0; i < n; i++) {
        boolean listed = next < rows.length && rows[next] == i;
        if (listed) {
          next++;
        }
        if (listed == keep) {
          System.arraycopy(x, i * per, fx, out * per, per);
          fy[out++] = (int) y[i];
        }
      }
      return Dataset.fromArrays(name, fx, shape, fy, classes);
    }
  }

  private static Raw read(Path file, long[] expectedShape) throws IOException {
    String source = file.toString();
    Map<String, Tensor> arrays = Npz.read(file);
    Tensor x = arrays.get("x");
    Tensor y = arrays.get("y");
    if (x == null || y == null) {
      throw new DatasetFormatException(source, "has no array '" + (x == null ? "x" : "y")
          + "'; a client file holds x (features) and y (labels), it holds " + arrays.keySet());
    }
    if (x.rank() < 2 || !(x.dtype().isFloating() || x.dtype().isInteger())) {
      throw new DatasetFormatException(source, "x must be real numbers [n, ...] of rank >= 2, "
          + "got " + x.dtype() + x.shape());
    }
    if (y.rank() != 1 || !y.dtype().isInteger()) {
      throw new DatasetFormatException(source, "y must be whole numbers [n], got " + y.dtype()
          + y.shape());
    }
    long n = x.shape().dim(0);
    if (y.shape().dim(0) != n) {
      throw new DatasetFormatException(source, "x has " + n + " examples but y has "
          + y.shape().dim(0) + " labels");
    }
    if (n == 0) {
      throw new DatasetFormatException(source, "has no examples");
    }
    long[] dims = x.shape().dims();
    long[] shape = Arrays.copyOfRange(dims, 1, dims.length);
    if (expectedShape != null && !Arrays.equals(shape, expectedShape)) {
      throw new DatasetFormatException(source, "x's examples have shape "
          + Arrays.toString(shape) + ", the other files' " + Arrays.toString(expectedShape));
    }
    if (x.size() > Integer.MAX_VALUE - 8) {
      throw new DatasetFormatException(source, "x has " + x.size() + " values, more than one "
          + "client holds");
    }
    float[] fx = new float[(int) x.size()];
    for (int i = 0; i < fx.length; i++) {
      double v = x.dtype() == DType.FLOAT32 ? x.getFloat(i) : x.getAsDouble(i);
      float f = (float) v;
      if (!Float.isFinite(f)) {
        throw new DatasetFormatException(source, "x[" + (i / Math.max(1, fx.length / n))
            + "] holds " + v + ", not a finite float32");
      }
      fx[i] = f;
    }
    long[] fy = new long[(int) n];
    int max = -1;
    for (int i = 0; i < fy.length; i++) {
      double v = y.getAsDouble(i);
      if (v < 0 || v > Integer.MAX_VALUE - 1) {
        throw new DatasetFormatException(source, "y[" + i + "] is " + (long) v
            + ", not a class index >= 0");
      }
      fy[i] = (long) v;
      max = Math.max(max, (int) v);
    }
    return new Raw(fx, fy, shape, max, (int) n);
  }
}
