package io.tributary.graph.ops;

/**
 * Float32 products with k = 1 (an outer product: a dense layer's weight gradient over a batch of
 * one example, {@code x^T delta}) for the portable kernel. With one step of k, element (i, j) of
 * the product is {@code fma(a_i, b_j, start)}, and A and B are read the same way whether or not
 * they are transposed ({@code a[aOff + i]}, {@code b[j]}), so each row is one short loop without
 * the per-element layout tests of the general loop, which C2 then vectorizes. The operations are
 * the general loop's, in its order, so the bits are the same (RankOneTest).
 */
final class RankOne {
  private RankOne() {}

  /**
   * Rows {@code [from, to)} of C for k = 1: {@code s = fma(a_i, b_j, accumulate ? c_ij : 0)},
   * then {@code c_ij = scaled ? Gemm.combine(s, alpha, beta, c_ij) : s}.
   */
  static void rows(int n, float[] a, int aOff, float[] b, float[] c, int cOff, int from, int to,
      boolean accumulate, float alpha, float beta, boolean scaled) {
    if (scaled && !accumulate && beta != 0f) {
      // A training step's update, w = fma(x_i delta_j, -lr, w): the case worth a loop of its own.
      for (int i = from; i < to; i++) {
        float x = a[aOff + i];
        int ci = cOff + i * n;
        for (int j = 0; j < n; j++) {
          c[ci + j] = Math.fma(Math.fma(x, b[j], 0f), alpha, beta * c[ci + j]);
        }
      }
      return;
    }
    if (!scaled && !accumulate) {
      for (int i = from; i < to; i++) {
        float x = a[aOff + i];
        int ci = cOff + i * n;
        for (int j = 0; j < n; j++) {
          c[ci + j] = Math.fma(x, b[j], 0f);
        }
      }
      return;
    }
    for (int i = from; i < to; i++) {
      float x = a[aOff + i];
      int ci = cOff + i * n;
      for (int j = 0; j < n; j++) {
        float s = Math.fma(x, b[j], accumulate ? c[ci + j] : 0f);
        c[ci + j] = scaled ? Gemm.combine(s, alpha, beta, c[ci + j]) : s;
      }
    }
  }
}
