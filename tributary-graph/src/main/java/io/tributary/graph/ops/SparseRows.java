package io.tributary.graph.ops;

import io.tributary.tensor.Zeros;
import java.util.Arrays;

/**
 * Float32 products {@code c = a b} (neither transposed) whose rows of {@code a} are mostly zero
 * and whose {@code b} is known to be finite ({@link NdArray#assumingFinite}): each element of C
 * summed over the non-zero elements of its row of A only. A generated population's example (32
 * non-zero features of 99,999) times a 1,000,000-parameter layer is then 32 steps instead of a
 * chain of 99,999 dependent multiply-adds per output, the two forward products of a
 * one-example client's round.
 *
 * <p>The Java kernels compute each element of C as one chain of fused multiply-adds over k in
 * ascending order from +0 ({@link Gemm}, {@link NarrowGemm}, {@link VectorGemm}); this chain
 * takes the same non-zero steps in the same order. A dropped step {@code fma(±0, b, s)} with b
 * finite adds a zero, which leaves {@code s} as it is unless {@code s} is itself a zero (then it
 * may flip the zero's sign). So, step for step, the chain with and the chain without the zero
 * steps hold the same bits or both hold a zero, and a row whose sums end non-zero has the dense
 * kernel's bits; a row with a zero among its sums is left to the dense kernel.
 */
final class SparseRows {
  /** The shortest k worth scanning for zeros. */
  static final int MIN_K = 1024;
  /** A row is summed here when at most one element in this many is non-zero. */
  static final int DENSITY = 16;

  private SparseRows() {}

  /**
   * Writes {@code c = a b} ([m, k] times [k, n], row-major) and returns true when every row of
   * {@code a} is sparse enough and every sum ends non-zero; otherwise returns false, having
   * written some rows of {@code c}, which the caller's dense product then overwrites. The caller
   * vouches that {@code b}'s elements are finite; sizes are checked by the caller.
   */
  static boolean multiply(int m, int n, int k, float[] a, float[] b, float[] c) {
    if (k < MIN_K) {
      return false;
    }
    int limit = k / DENSITY;
    float[] acc = new float[n];
    for (int i = 0; i < m; i++) {
      Arrays.fill(acc, 0f);
      if (!row(n, k, a, i * k, b, acc, limit)) {
        return false;
      }
      for (int j = 0; j < n; j++) {
        if (acc[j] == 0f) {
          return false;
        }
      }
      System.arraycopy(acc, 0, c, i * n, n);
    }
    return true;
  }

  /**
   * Adds row {@code a[a0, a0 + k)} times b into {@code acc}, its non-zero steps only; false as
   * soon as the row has more than {@code limit} of them.
   */
  private static boolean row(int n, int k, float[] a, int a0, float[] b, float[] acc, int limit) {
    int nonZero = 0;
    int end = a0 + k;
    for (int p = Zeros.nextNonZero(a, a0, end); p < end; p = Zeros.nextNonZero(a, p + 1, end)) {
      if (++nonZero > limit) {
        return false;
      }
      step(n, a[p], b, (p - a0) * n, acc);
    }
    return true;
  }

  private static void step(int n, float x, float[] b, int b0, float[] acc) {
    for (int j = 0; j < n; j++) {
      acc[j] = Math.fma(x, b[b0 + j], acc[j]);
    }
  }
}
