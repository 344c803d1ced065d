package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.TensorBuilder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A population of any size whose clients' data are made on demand from the seed and the client's
 * index, so that a simulation of millions of clients holds none of their data.
 *
 * <p>Every example has {@code min(dimension, 32)} active features at distinct positions drawn
 * uniformly, each {@code N(0, 1)}; the others are zero (sparse rows, as bag-of-words features are,
 * which keeps a client cheap to make even for a 100,000-feature model). Its label is
 * {@code argmax_c sum_j x_j T[j, c]} for a teacher matrix {@code T} of values uniform in
 * {@code [-1, 1)}, each a hash of the seed and its position, so that no process stores it: a
 * linear model can learn the labels exactly. Client {@code k} has {@code examplesPerClient}
 * examples from its own stream ({@code seed} mixed with {@code k}); the test set is
 * {@link #testSize()} examples from a stream of their own.
 *
 * @param dimension the number of features
 * @param numClasses the number of classes
 * @param examplesPerClient each client's number of training examples
 * @param seed the seed every value derives from
 */
public record GeneratedPopulation(int dimension, int numClasses, int examplesPerClient,
    long seed) {
  /** The most features an example has that are not zero. */
  public static final int ACTIVE_FEATURES = 32;
  /** The most examples one client holds. */
  public static final int MAX_EXAMPLES_PER_CLIENT = 10_000;
  /** The most float32 values one client's features may hold (256 MiB). */
  public static final long MAX_CLIENT_FLOATS = 1L << 26;
  /** The test set's size is capped so that it holds at most this many float32 values (64 MiB). */
  public static final long MAX_TEST_FLOATS = 1L << 24;
  /** The test set's largest size. */
  public static final int MAX_TEST_EXAMPLES = 10_000;

  private static final long TEST_STREAM = 0x7E57_7E57_7E57_7E57L;
  private static final long TEACHER_STREAM = 0x7EAC_4E27_7EAC_4E27L;

  /**
   * Checks the sizes.
   *
   * @throws IllegalArgumentException naming the value out of range
   */
  public GeneratedPopulation {
    if (dimension < 1) {
      throw new IllegalArgumentException("generated data need at least 1 feature, got "
          + dimension);
    }
    if (numClasses < 2) {
      throw new IllegalArgumentException("generated data need at least 2 classes, got "
          + numClasses);
    }
    if (examplesPerClient < 1 || examplesPerClient > MAX_EXAMPLES_PER_CLIENT) {
      throw new IllegalArgumentException("generated data: examples per client must be in [1, "
          + MAX_EXAMPLES_PER_CLIENT + "], got " + examplesPerClient);
    }
    if ((long) dimension * examplesPerClient > MAX_CLIENT_FLOATS) {
      throw new IllegalArgumentException("generated data: " + examplesPerClient
          + " examples of " + dimension + " features make more than " + MAX_CLIENT_FLOATS
          + " values per client");
    }
    if ((long) dimension * numClasses > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("generated data: " + dimension + " features x "
          + numClasses + " classes is too large a model");
    }
  }

  /** The data set's name, which says its sizes. */
  public String name() {
    return "generated-" + dimension + "x" + numClasses;
  }

  /**
   * Client {@code index}'s training examples; the same index gives equal data every time.
   *
   * @throws IllegalArgumentException if {@code index} is negative
   */
  public Dataset client(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("client index must be >= 0, got " + index);
    }
    return examples(name() + "-client-" + index, examplesPerClient, mix(seed, index));
  }

  /** The number of test examples: {@value #MAX_TEST_EXAMPLES}, fewer for wide examples. */
  public int testSize() {
    return (int) Math.max(1, Math.min(MAX_TEST_EXAMPLES, MAX_TEST_FLOATS / dimension));
  }

  /** The held-out examples, from a stream no client uses. */
  public Dataset test() {
    return examples(name() + "-test", testSize(), mix(seed ^ TEST_STREAM, -1));
  }

  private Dataset examples(String name, int count, long stream) {
    SplittableRandom rnd = new SplittableRandom(stream);
    int active = Math.min(dimension, ACTIVE_FEATURES);
    TensorBuilder x = TensorBuilder.allocate(DType.FLOAT32, Shape.of(count, dimension));
    TensorBuilder y = TensorBuilder.allocate(DType.INT64, Shape.of(count));
    int[] at = new int[active];
    double[] value = new double[active];
    double[] score = new double[numClasses];
    for (int e = 0; e < count; e++) {
      chooseDistinct(rnd, at);
      Arrays.fill(score, 0);
      for (int a = 0; a < active; a++) {
        // The label is computed from the float32 value the example stores.
        float v = (float) rnd.nextGaussian();
        value[a] = v;
        x.setFloat((long) e * dimension + at[a], v);
      }
      for (int a = 0; a < active; a++) {
        for (int c = 0; c < numClasses; c++) {
          score[c] += value[a] * teacher(at[a], c);
        }
      }
      int best = 0;
      for (int c = 1; c < numClasses; c++) {
        if (score[c] > score[best]) {
          best = c;
        }
      }
      y.setLong(e, best);
    }
    return new Dataset(name, x.build(), y.build(), numClasses);
  }

  /** Fills {@code at} with distinct feature positions; a rejected draw is redrawn. */
  private void chooseDistinct(SplittableRandom rnd, int[] at) {
    for (int a = 0; a < at.length; a++) {
      int p;
      boolean seen;
      do {
        p = rnd.nextInt(dimension);
        seen = false;
        for (int b = 0; b < a; b++) {
          seen |= at[b] == p;
        }
      } while (seen);
      at[a] = p;
    }
  }

  /** T[j, c], uniform in [-1, 1): a hash of the seed and the position, stored nowhere. */
  private double teacher(int feature, int c) {
    long h = mix(seed ^ TEACHER_STREAM, (long) feature * numClasses + c);
    return (h >>> 11) * 0x1.0p-52 - 1.0;
  }

  /** SplitMix64's finalizer over the seed and an index: independent streams per index. */
  private static long mix(long seed, long index) {
    long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
