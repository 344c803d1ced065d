package io.tributary.graph.ops;

/**
 * The exponentials a float32 sparse cross-entropy computed for one batch, kept by a compiled run
 * so the gradient op that follows on the same logits reuses them instead of computing each
 * exponential again. Per run, never shared between threads.
 *
 * <p>The entries are valid only for the exact logits array they were computed from, and only
 * until that array is written again: {@link #matches} checks the array's identity and size, and
 * the plan pairs the two ops only when nothing writes the logits between them.
 */
final class SoftmaxRows {
  private float[] source;
  private int rows;
  private int classes;
  /** exp(z - max) per element, row-major. */
  private double[] exps = new double[0];
  /** The sum of each row's exponentials, in index order. */
  private double[] sums = new double[0];

  /** Prepares to hold {@code n} rows of {@code c} classes computed from {@code z}. */
  void begin(float[] z, int n, int c) {
    source = null;
    int cells = Math.multiplyExact(n, c);
    if (exps.length < cells) {
      exps = new double[cells];
    }
    if (sums.length < n) {
      sums = new double[n];
    }
    rows = n;
    classes = c;
  }

  /** Marks the entries complete for {@code z}. */
  void finish(float[] z) {
    source = z;
  }

  /** Forgets the entries, so a later gradient computes its own. */
  void clear() {
    source = null;
  }

  /** Whether the entries were computed from exactly {@code z} as {@code n} rows of {@code c}. */
  boolean matches(float[] z, int n, int c) {
    return source == z && rows == n && classes == c;
  }

  double[] exps() {
    return exps;
  }

  double[] sums() {
    return sums;
  }
}
