package io.tributary.tensor;

import java.util.Arrays;

/**
 * What a rank-one difference is made of ({@link Tensor#rankOneStep}): element (i, j) of a
 * [{@code u.length}, {@code v.length}] tensor is {@code fma(fma(u[i], v[j], 0), alpha, s) - s}
 * with {@code s = start[i * v.length + j]}, computed a slice at a time where it is read. The
 * operations are a fused product-accumulate's and a float subtraction, in that order, so a slice
 * holds the same bits however it is sliced.
 */
final class RankOneFactors {
  static final boolean VECTOR_PRESENT =
      ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

  private final float[] start;
  private final float[] u;
  private final float[] v;
  private final float alpha;
  /** The sum's Vector API kernel for short rows, or null (the scalar loops compute it all). */
  private final VectorRankOne vector;
  /**
   * The rows whose {@code u} is not zero, ascending, where a zero row's change is known to be
   * +0 and such rows are most of them ({@link #addSparse}); null otherwise.
   */
  private final int[] nonzeroRows;

  RankOneFactors(float[] start, float[] u, float[] v, float alpha) {
    this(start, u, v, alpha, VECTOR_PRESENT, false);
  }

  /** {@code vectorize}: whether {@link #add} may use the Vector API (false where it is absent). */
  RankOneFactors(float[] start, float[] u, float[] v, float alpha, boolean vectorize) {
    this(start, u, v, alpha, vectorize, false);
  }

  /**
   * {@code startFinite}: whether the start's lender checked every element finite, which with
   * finite {@code v} and {@code alpha} makes every element of a zero row +0.
   */
  RankOneFactors(float[] start, float[] u, float[] v, float alpha, boolean vectorize,
      boolean startFinite) {
    this.start = start;
    this.u = u;
    this.v = v;
    this.alpha = alpha;
    this.vector = vectorize && v.length < LONG_ROW ? VectorRankOne.of(u, v) : null;
    this.nonzeroRows = startFinite && Float.isFinite(alpha) && Double.isFinite(maxAbs(v))
        ? sparseRows(u)
        : null;
  }

  /** At most one row in this many non-zero for {@link #addSparse}. */
  private static final int SPARSE_DIVISOR = 16;

  /** The non-zero rows of {@code u}, ascending, or null when there are more than a few. */
  private static int[] sparseRows(float[] u) {
    int limit = u.length / SPARSE_DIVISOR;
    int[] rows = new int[Math.min(limit, 64)];
    int n = 0;
    for (int i = Zeros.nextNonZero(u, 0, u.length); i < u.length;
        i = Zeros.nextNonZero(u, i + 1, u.length)) {
      if (n == limit) {
        return null;
      }
      if (n == rows.length) {
        rows = Arrays.copyOf(rows, Math.min(limit, 2 * n));
      }
      rows[n++] = i;
    }
    return Arrays.copyOf(rows, n);
  }

  /**
   * Whether {@link #addSparse} may stand for {@link #add}: the start is finite, {@code v} and
   * {@code alpha} are, and few rows of {@code u} are not zero.
   */
  boolean sparse() {
    return nonzeroRows != null;
  }

  /**
   * {@link #add} reading only the non-zero rows: the bits of {@link #add} when {@link #sparse},
   * {@code w} is finite and {@code acc[to, to + len)} holds no -0. A zero row's element is
   * {@code fma(fma(0, v_j, 0), alpha, s) - s}: the product is +0 for a finite {@code v_j}, the
   * step is {@code s} (+0 when {@code s} is -0 and the product's sign says so, which then
   * subtracts to +0 as well), and a finite {@code s} minus itself is +0; {@code acc + w * (+0)}
   * is {@code acc} for every {@code acc} but -0, which the caller ruled out (a sum that starts at
   * +0 never reaches -0, since x + y is -0 only when both are).
   */
  void addSparse(int at, int len, double w, double[] acc, int to) {
    int cols = v.length;
    int[] rows = nonzeroRows;
    int end = at + len;
    int k = Arrays.binarySearch(rows, at / cols);
    for (k = k < 0 ? -k - 1 : k; k < rows.length; k++) {
      int i = rows[k];
      int rowStart = i * cols;
      if (rowStart >= end) {
        break;
      }
      int first = Math.max(rowStart, at);
      int last = Math.min(rowStart + cols, end);
      float ui = u[i];
      for (int e = first; e < last; e++) {
        float s = start[e];
        float d = Math.fma(Math.fma(ui, v[e - rowStart], 0f), alpha, s) - s;
        acc[to + e - at] += w * d;
      }
    }
  }

  /** The elements: {@code u.length * v.length}. */
  int size() {
    return Math.multiplyExact(u.length, v.length);
  }

  /**
   * Whether every element is finite, known without computing them: the factors are finite, the
   * start is within half the range ({@code startWithin}, as its lender said), and {@code |u|
   * |v| |alpha|} stays below 2^126 (with a margin for the two roundings), so that each step's
   * value is below 2^127 + 2^126 and its difference from the start below 2^127.
   */
  boolean boundedFinite(boolean startWithin) {
    if (!startWithin) {
      return false;
    }
    // A sparse u's largest magnitude is among its non-zero rows (a NaN is one of them).
    double mu = nonzeroRows != null ? maxAbs(u, nonzeroRows) : maxAbs(u);
    double mv = maxAbs(v);
    if (!Double.isFinite(mu) || !Double.isFinite(mv) || !Float.isFinite(alpha)) {
      return false;
    }
    return mu * mv * Math.abs((double) alpha) * (1 + 0x1p-20) < 0x1p126;
  }

  /** The largest magnitude in {@code a}, or NaN / infinity when an element is one. */
  private static double maxAbs(float[] a) {
    // Math.max keeps a NaN, so one branch-free loop finds both.
    float m = 0f;
    for (float x : a) {
      m = Math.max(m, Math.abs(x));
    }
    return m;
  }

  /** The largest magnitude among {@code a}'s elements at {@code rows}, or NaN where one is. */
  private static double maxAbs(float[] a, int[] rows) {
    float m = 0f;
    for (int i : rows) {
      m = Math.max(m, Math.abs(a[i]));
    }
    return m;
  }

  /** Rows at least this long are computed row by row; shorter ones column by column. */
  private static final int LONG_ROW = 64;

  /**
   * Elements {@code [at, at + len)} into {@code out[0, len)}: the products ({@link #products}),
   * then the step and the subtraction over the whole slice, a loop C2 vectorizes.
   */
  void elements(int at, int len, float[] out) {
    products(at, len, out);
    float[] s = start;
    float a = alpha;
    for (int q = 0; q < len; q++) {
      float start = s[at + q];
      out[q] = Math.fma(out[q], a, start) - start;
    }
  }

  /**
   * {@code acc[to + q] += w * d[at + q]} for {@code q < len}, d the elements, each computed as
   * {@link #elements} does (in one loop with the sum, not stored) and widened as a made element
   * is; {@code scratch} holds at least {@code len} floats. Short rows go to the Vector API
   * kernel where it is present ({@link VectorRankOne}, the same bits), which leaves the scalar
   * loops the last few elements at most.
   */
  void add(int at, int len, double w, double[] acc, int to, float[] scratch) {
    int done = vector == null ? 0 : vector.add(start, alpha, at, len, w, acc, to);
    addRest(at, len, done, w, acc, to, scratch);
  }

  /**
   * Whether {@link RankOneRun} may add {@code next} in one sweep with this difference: both have
   * the Vector API kernel, the same start array and the same shape.
   */
  boolean runsWith(RankOneFactors next) {
    return vector != null && next.vector != null && next.start == start
        && next.vector.runsWith(vector);
  }

  /** The Vector API kernel, or null. */
  VectorRankOne vector() {
    return vector;
  }

  float[] start() {
    return start;
  }

  float alpha() {
    return alpha;
  }

  /**
   * {@link #add}'s scalar loops for elements {@code [at + done, at + len)}, the vector kernel
   * having added the first {@code done}.
   */
  void addRest(int at, int len, int done, double w, double[] acc, int to, float[] scratch) {
    if (done == len) {
      return;
    }
    int from = at + done;
    int n = len - done;
    products(from, n, scratch);
    float[] s = start;
    float a = alpha;
    for (int q = 0; q < n; q++) {
      float start = s[from + q];
      float d = Math.fma(scratch[q], a, start) - start;
      acc[to + done + q] += w * d;
    }
  }

  /**
   * The products {@code fma(u_i, v_j, 0)} of elements {@code [at, at + len)} into {@code out}.
   * Long rows are made row by row (a vectorized loop per row). Short ones (a softmax layer's ten
   * classes) are made column by column down the slice's rows, where a loop per row of ten would
   * be mostly loop overhead; the column loop's stride is a constant for the widths up to 16 (each
   * case a call C2 compiles with its width folded in), about 1.5 times as fast as with a
   * variable stride, whose index C2 checks at every element.
   */
  private void products(int at, int len, float[] out) {
    int cols = v.length;
    switch (cols) {
      case 2 -> columns(at, len, out, 2);
      case 3 -> columns(at, len, out, 3);
      case 4 -> columns(at, len, out, 4);
      case 5 -> columns(at, len, out, 5);
      case 6 -> columns(at, len, out, 6);
      case 7 -> columns(at, len, out, 7);
      case 8 -> columns(at, len, out, 8);
      case 9 -> columns(at, len, out, 9);
      case 10 -> columns(at, len, out, 10);
      case 11 -> columns(at, len, out, 11);
      case 12 -> columns(at, len, out, 12);
      case 13 -> columns(at, len, out, 13);
      case 14 -> columns(at, len, out, 14);
      case 15 -> columns(at, len, out, 15);
      case 16 -> columns(at, len, out, 16);
      default -> {
        if (cols < LONG_ROW) {
          columns(at, len, out, cols);
        } else {
          rows(at, len, out);
        }
      }
    }
  }

  /** {@link #products} column by column, for rows of {@code cols} elements. */
  private void columns(int at, int len, float[] out, int cols) {
    int firstRow = at / cols;
    for (int j = 0; j < cols; j++) {
      float vj = v[j];
      // The slice's first element in column j, and its row.
      int q = firstRow * cols + j - at;
      int i = firstRow;
      if (q < 0) {
        q += cols;
        i++;
      }
      int n = q < len ? (len - q + cols - 1) / cols : 0;
      for (int k = 0; k < n; k++) {
        out[q + k * cols] = Math.fma(u[i + k], vj, 0f);
      }
    }
  }

  /** {@link #products} row by row. */
  private void rows(int at, int len, float[] out) {
    int cols = v.length;
    int i = at / cols;
    int j = at - i * cols;
    for (int q = 0; q < len; i++, j = 0) {
      int run = Math.min(cols - j, len - q);
      float ui = u[i];
      for (int r = 0; r < run; r++) {
        out[q + r] = Math.fma(ui, v[j + r], 0f);
      }
      q += run;
    }
  }
}
