package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A labelled dataset seen as a sequence of {@link Batch}es: float32 features {@code [N, ...]} and
 * int64 class labels {@code [N]} in {@code [0, numClasses)}.
 *
 * <p>Instances are immutable. Subsets, splits and batches copy the selected rows (or, for
 * unshuffled batches, share storage with this dataset); the source is never modified.
 */
public final class Dataset {
  /** The largest number of examples a dataset can hold, since example indices are ints. */
  public static final int MAX_EXAMPLES = Integer.MAX_VALUE - 8;

  private final String name;
  private final Tensor features;
  private final Tensor labels;
  private final int numClasses;
  private final int size;
  private final long[] exampleShape;
  private final int rowBytes;

  /**
   * A dataset over the given tensors.
   *
   * @param features float32, rank at least 2; axis 0 indexes examples
   * @param labels int64, rank 1, one label per example, each in {@code [0, numClasses)}
   * @throws IllegalArgumentException naming the tensor, or the example whose label is out of range
   */
  public Dataset(String name, Tensor features, Tensor labels, int numClasses) {
    this.name = Objects.requireNonNull(name, "name");
    if (features.dtype() != DType.FLOAT32 || features.rank() < 2) {
      throw new IllegalArgumentException(
          name + ": features must be float32 [N, ...] with rank >= 2, got " + features.dtype()
              + features.shape());
    }
    if (labels.dtype() != DType.INT64 || labels.rank() != 1) {
      throw new IllegalArgumentException(
          name + ": labels must be int64 [N], got " + labels.dtype() + labels.shape());
    }
    long n = features.shape().dim(0);
    if (labels.shape().dim(0) != n) {
      throw new IllegalArgumentException(
          name + ": " + n + " feature rows but " + labels.shape().dim(0) + " labels");
    }
    if (n > MAX_EXAMPLES) {
      throw new IllegalArgumentException(name + ": " + n + " examples exceed " + MAX_EXAMPLES);
    }
    if (numClasses < 1) {
      throw new IllegalArgumentException(name + ": numClasses must be >= 1, got " + numClasses);
    }
    long[] dims = features.shape().dims();
    this.exampleShape = Arrays.copyOfRange(dims, 1, dims.length);
    long perExample = Shape.of(exampleShape).size();
    if (perExample * Float.BYTES > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          name + ": " + perExample + " features per example is too many for one row");
    }
    this.rowBytes = (int) perExample * Float.BYTES;
    this.size = (int) n;
    this.numClasses = numClasses;
    this.features = features.contiguous();
    this.labels = labels.contiguous();
    for (int i = 0; i < size; i++) {
      long y = this.labels.getLong(i);
      if (y < 0 || y >= numClasses) {
        throw new IllegalArgumentException(
            name + ": label " + y + " of example " + i + " is outside [0, " + numClasses + ")");
      }
    }
  }

  /**
   * A dataset copied from arrays.
   *
   * @param features {@code labels.length * product(exampleShape)} values, example after example
   * @param exampleShape the shape of one example's features, e.g. {@code {64}} or {@code {28, 28}}
   */
  public static Dataset fromArrays(
      String name, float[] features, long[] exampleShape, int[] labels, int numClasses) {
    if (exampleShape.length == 0) {
      throw new IllegalArgumentException(name + ": exampleShape needs at least one axis");
    }
    long[] dims = new long[exampleShape.length + 1];
    dims[0] = labels.length;
    System.arraycopy(exampleShape, 0, dims, 1, exampleShape.length);
    Shape shape = Shape.of(dims);
    if (shape.size() != features.length) {
      throw new IllegalArgumentException(
          name + ": " + features.length + " feature values do not fill " + shape);
    }
    Tensor x = Tensors.floats(shape, features);
    long[] y = new long[labels.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels[i];
    }
    return new Dataset(name, x, Tensors.longs(Shape.of(y.length), y), numClasses);
  }

  /**
   * Joins datasets that share an example shape and class count, in order.
   *
   * @throws IllegalArgumentException when the parts are empty, mismatched or too many in total
   */
  public static Dataset concat(String name, List<Dataset> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException(name + ": nothing to concatenate");
    }
    Dataset first = parts.get(0);
    long total = 0;
    for (Dataset p : parts) {
      if (!Arrays.equals(p.exampleShape, first.exampleShape) || p.numClasses != first.numClasses) {
        throw new IllegalArgumentException(
            name + ": cannot concatenate " + p + " with " + first
                + " (example shape or class count differs)");
      }
      total += p.size;
    }
    if (total > MAX_EXAMPLES) {
      throw new IllegalArgumentException(name + ": " + total + " examples exceed " + MAX_EXAMPLES);
    }
    TensorBuilder xb = TensorBuilder.allocate(DType.FLOAT32, first.batchShape((int) total));
    TensorBuilder yb = TensorBuilder.allocate(DType.INT64, Shape.of(total));
    long at = 0;
    int row = 0;
    for (Dataset p : parts) {
      long bytes = p.features.byteSize();
      xb.putBytes(at, p.features, 0, bytes);
      at += bytes;
      for (int i = 0; i < p.size; i++) {
        yb.setLong(row++, p.labels.getLong(i));
      }
    }
    return new Dataset(name, xb.build(), yb.build(), first.numClasses);
  }

  /** A human-readable name, e.g. {@code digits} or {@code synthetic(1,1)/f_00003/train}. */
  public String name() {
    return name;
  }

  /** All features, float32 {@code [N, ...]}. */
  public Tensor features() {
    return features;
  }

  /** All labels, int64 {@code [N]}. */
  public Tensor labels() {
    return labels;
  }

  /** The number of classes; every label lies in {@code [0, numClasses)}. */
  public int numClasses() {
    return numClasses;
  }

  /** The number of examples N. */
  public int size() {
    return size;
  }

  /** The shape of one example's features (the feature tensor's shape without axis 0). */
  public long[] exampleShape() {
    return exampleShape.clone();
  }

  /** The number of feature values per example. */
  public int featuresPerExample() {
    return rowBytes / Float.BYTES;
  }

  /** The label of example {@code i}. */
  public int label(int i) {
    Objects.checkIndex(i, size);
    return (int) labels.getLong(i);
  }

  /** Every label, in example order. */
  public int[] labelArray() {
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = (int) labels.getLong(i);
    }
    return out;
  }

  /** How many examples carry each label; index c holds the count for class c. */
  public long[] labelCounts() {
    long[] counts = new long[numClasses];
    for (int i = 0; i < size; i++) {
      counts[(int) labels.getLong(i)]++;
    }
    return counts;
  }

  /**
   * The type of this dataset's elements in the Federated Core's notation, e.g.
   * {@code <x=float32[?,64],y=int64[?]>}; the leading {@code ?} is the batch size.
   */
  public String elementSpec() {
    StringBuilder sb = new StringBuilder("<x=float32[?");
    for (long d : exampleShape) {
      sb.append(',').append(d);
    }
    return sb.append("],y=int64[?]>").toString();
  }

  /** The same data under another name. */
  public Dataset withName(String newName) {
    return new Dataset(newName, features, labels, numClasses);
  }

  /**
   * The examples at {@code indices}, in that order, copied into a new dataset.
   *
   * @throws IndexOutOfBoundsException for an index outside {@code [0, size())}
   */
  public Dataset subset(String subsetName, int[] indices) {
    Batch b = gather(indices, 0, indices.length);
    return new Dataset(subsetName, b.x(), b.y(), numClasses);
  }

  /** The number of batches {@link #batches} yields: the last one may be smaller. */
  public int numBatches(int batchSize) {
    checkBatchSize(batchSize);
    return (int) ((size + (long) batchSize - 1) / batchSize);
  }

  /** Batches in example order; see {@link #batches(int, boolean, long)}. */
  public Iterable<Batch> batches(int batchSize) {
    return batches(batchSize, false, 0);
  }

  /**
   * This dataset as a sequence of batches of {@code batchSize} examples; the last batch holds the
   * remainder and is smaller when {@code batchSize} does not divide {@link #size()}.
   *
   * <p>With {@code shuffle}, the examples follow one permutation drawn from {@code seed}: the same
   * seed gives the same batches, and each {@code iterator()} starts the same sequence again.
   * Without it, batches are in example order and share storage with this dataset.
   */
  public Iterable<Batch> batches(int batchSize, boolean shuffle, long seed) {
    checkBatchSize(batchSize);
    return () -> new BatchIterator(batchSize, shuffle ? Permutations.permutation(size,
        new SplittableRandom(seed)) : null);
  }

  /** Lists the batches of one pass; a convenience for tests and small data. */
  public List<Batch> batchList(int batchSize, boolean shuffle, long seed) {
    List<Batch> out = new ArrayList<>(numBatches(batchSize));
    batches(batchSize, shuffle, seed).forEach(out::add);
    return out;
  }

  /**
   * A random split with {@code ceil(testFraction * N)} test examples; each part keeps the
   * original example order.
   *
   * @param testFraction strictly between 0 and 1
   */
  public TrainTestSplit split(double testFraction, long seed) {
    checkFraction(testFraction);
    int[] perm = Permutations.permutation(size, new SplittableRandom(seed));
    int nTest = (int) Math.min(size, Math.ceil(testFraction * size));
    int[] test = Arrays.copyOfRange(perm, 0, nTest);
    int[] train = Arrays.copyOfRange(perm, nTest, size);
    Arrays.sort(test);
    Arrays.sort(train);
    return new TrainTestSplit(subset(name + "/train", train), subset(name + "/test", test));
  }

  /**
   * A random split that keeps class proportions: from each class with n examples,
   * {@code round(testFraction * n)} (halves rounded up) go to the test part. Each part keeps the
   * original example order.
   *
   * @param testFraction strictly between 0 and 1
   */
  public TrainTestSplit stratifiedSplit(double testFraction, long seed) {
    checkFraction(testFraction);
    SplittableRandom random = new SplittableRandom(seed);
    int[][] byClass = indicesByClass();
    boolean[] isTest = new boolean[size];
    int nTest = 0;
    for (int[] members : byClass) {
      Permutations.shuffle(members, random);
      int take = (int) Math.min(members.length, Math.floor(testFraction * members.length + 0.5));
      for (int k = 0; k < take; k++) {
        isTest[members[k]] = true;
      }
      nTest += take;
    }
    int[] train = new int[size - nTest];
    int[] test = new int[nTest];
    int a = 0;
    int b = 0;
    for (int i = 0; i < size; i++) {
      if (isTest[i]) {
        test[b++] = i;
      } else {
        train[a++] = i;
      }
    }
    return new TrainTestSplit(subset(name + "/train", train), subset(name + "/test", test));
  }

  /** For each class, the ascending indices of its examples. */
  int[][] indicesByClass() {
    long[] counts = labelCounts();
    int[][] out = new int[numClasses][];
    for (int c = 0; c < numClasses; c++) {
      out[c] = new int[(int) counts[c]];
    }
    int[] fill = new int[numClasses];
    for (int i = 0; i < size; i++) {
      int c = (int) labels.getLong(i);
      out[c][fill[c]++] = i;
    }
    return out;
  }

  @Override
  public String toString() {
    return "Dataset[" + name + ": " + size + " x " + Arrays.toString(exampleShape) + ", "
        + numClasses + " classes]";
  }

  private Shape batchShape(int n) {
    long[] dims = new long[exampleShape.length + 1];
    dims[0] = n;
    System.arraycopy(exampleShape, 0, dims, 1, exampleShape.length);
    return Shape.of(dims);
  }

  private Batch gather(int[] indices, int from, int to) {
    int n = to - from;
    TensorBuilder xb = TensorBuilder.allocate(DType.FLOAT32, batchShape(n));
    long[] y = new long[n];
    for (int j = 0; j < n; j++) {
      int i = Objects.checkIndex(indices[from + j], size);
      // One copy from store to store: shuffling a client's data into batches runs on the round's
      // critical path, every round.
      xb.putBytes((long) j * rowBytes, features, (long) i * rowBytes, rowBytes);
      y[j] = labels.getLong(i);
    }
    return new Batch(xb.build(), Tensors.longs(Shape.of(n), y));
  }

  private static void checkBatchSize(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
    }
  }

  private static void checkFraction(double f) {
    if (!(f > 0 && f < 1)) {
      throw new IllegalArgumentException("test fraction must be in (0, 1), got " + f);
    }
  }

  /** Walks one pass over the data; {@code order == null} means example order. */
  private final class BatchIterator implements Iterator<Batch> {
    private final int batchSize;
    private final int[] order;
    private int next;

    BatchIterator(int batchSize, int[] order) {
      this.batchSize = batchSize;
      this.order = order;
    }

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public Batch next() {
      if (next >= size) {
        throw new NoSuchElementException("no more batches in " + name);
      }
      int end = (int) Math.min(size, (long) next + batchSize);
      Batch b = order == null
          ? new Batch(features.slice(0, next, end), labels.slice(0, next, end))
          : gather(order, next, end);
      next = end;
      return b;
    }
  }
}
