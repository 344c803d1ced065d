package io.tributary.graph.ops;

/**
 * The matrix product convolutions run on, {@code C = A B}, where A is not stored but read from a
 * padded source in place: {@code A[i][k] = src[rowAt(i) + kAt(k)]}. With the rows the output
 * positions and k the window entries, A is the im2col matrix of the forward pass; with the rows the
 * window entries and k the positions, it is the one the filter gradient needs. No window is ever
 * copied, and B is read where it lies (the filter, or the output gradient), one row of {@code n}
 * floats per step of k.
 *
 * <p>Every element of C is one chain of fused multiply-adds over k in ascending order, starting
 * from zero, on the Vector API ({@link VectorWindowGemm}) and in plain loops ({@link #portable})
 * alike: the same bits on every implementation and for every split of the rows over threads. On
 * the Vector API the rows go in blocks of about 128 KiB of C and k in blocks of about 32 KiB of B,
 * so that the block of B stays in L1 while every tile of the row block passes over it, and the
 * row block of C in L2; C's chains continue from block to block.
 */
final class WindowGemm {
  /** The fewest rows of C per block on the Vector API: a multiple of every tile's height. */
  static final int ROWS = 64;
  /** Rows of C per block in the portable loop: the length of its vectorized inner loop. */
  private static final int PORTABLE_ROWS = 256;
  /** Steps of k per block in the portable loop: its gathered columns of A fill 64 KiB. */
  private static final int PORTABLE_STEPS = 64;
  /** Floats of B per block of k on the Vector API (32 KiB). */
  private static final int B_BLOCK_FLOATS = 8192;
  /** Floats of C per block of rows on the Vector API (128 KiB). */
  private static final int C_BLOCK_FLOATS = 32768;

  /** Fills {@code into[0, count)} with the offsets of rows (or steps) {@code [from, from+count)}. */
  @FunctionalInterface
  interface Offsets {
    void fill(int[] into, int from, int count);
  }

  private WindowGemm() {}

  /**
   * Rows {@code [i0, i1)} of C, each {@code c[i * ldc + j]} for {@code j < n}, all written:
   * {@code C[i][j] = sum over k < kn of src[rows(i) + steps(k)] * b[k * ldb + j]}.
   *
   * @param vector whether to run on the Vector API (which the caller checked is present)
   */
  static void multiply(boolean vector, float[] src, Offsets rows, int i0, int i1, Offsets steps,
      int kn, float[] b, int ldb, float[] c, int ldc, int n) {
    // On the Vector API, a block of B stays in L1 for the whole row block and a row block of C in
    // L2; the portable loop keeps a block of A's columns and of C's columns in L1 and L2.
    int kc = vector ? Math.max(16, B_BLOCK_FLOATS / Math.max(1, n)) : PORTABLE_STEPS;
    int rb = vector ? Math.clamp(C_BLOCK_FLOATS / Math.max(1, n) / 8 * 8, ROWS, 16 * ROWS)
        : PORTABLE_ROWS;
    int[] rowAt = new int[Math.min(rb, Math.max(0, i1 - i0))];
    int[] kAt = new int[Math.min(kc, kn)];
    float[][] at = vector ? null : new float[kAt.length][rowAt.length];
    float[][] acc = vector ? null : new float[n][rowAt.length];
    for (int r0 = i0; r0 < i1; r0 += rb) {
      int count = Math.min(rb, i1 - r0);
      rows.fill(rowAt, r0, count);
      for (int t = 0; t < count; t++) {
        java.util.Arrays.fill(c, (r0 + t) * ldc, (r0 + t) * ldc + n, 0f);
      }
      for (int k0 = 0; k0 < kn; k0 += kc) {
        int kb = Math.min(kc, kn - k0);
        steps.fill(kAt, k0, kb);
        if (vector) {
          VectorWindowGemm.block(src, rowAt, count, kAt, kb, b, k0 * ldb, ldb, c, r0 * ldc, ldc,
              n);
        } else {
          portable(src, rowAt, count, kAt, kb, b, k0 * ldb, ldb, c, r0 * ldc, ldc, n, at, acc);
        }
      }
    }
  }

  /**
   * One block in plain loops: {@code C[t][j] += sum over k < kn of src[rowAt[t] + kAt[k]] * b[bOff
   * + k * ldb + j]} for the rows {@code t < rows}, C's row t at {@code cOff + t * ldc}, each
   * element's chain continued in k's order. Computed as its transpose: the block's columns of A
   * are gathered into arrays of their own ({@code at[k][t]}) and C's columns summed in arrays of
   * their own ({@code acc[j][t]}), all indexed from 0, so that the inner loop runs over the block's
   * rows, long and contiguous: C2 vectorizes it only then (over a few dozen columns of C its
   * vector loop is mostly pre- and post-loop, and with two offsets into arrays that might be one
   * it does not vectorize at all). Two columns of C and four steps of k go together, nesting four
   * FMAs per element in k's order: each sum is loaded and stored once per four steps and each load
   * of A serves two columns. fma(b, a, s) is fma(a, b, s), so the chains are {@link
   * VectorWindowGemm}'s.
   */
  static void portable(float[] src, int[] rowAt, int rows, int[] kAt, int kn, float[] b, int bOff,
      int ldb, float[] c, int cOff, int ldc, int n, float[][] at, float[][] acc) {
    // Rows whose offsets follow one another (a filter gradient's window entries along kx and ci)
    // are one run of the source: copied as such.
    for (int k = 0; k < kn; k++) {
      int kk = kAt[k];
      float[] a = at[k];
      int t = 0;
      while (t < rows) {
        int r = rowAt[t];
        int e = t + 1;
        while (e < rows && rowAt[e] == r + (e - t)) {
          e++;
        }
        if (e - t >= 8) {
          System.arraycopy(src, r + kk, a, t, e - t);
          t = e;
        } else {
          a[t] = src[r + kk];
          t++;
        }
      }
    }
    for (int t = 0; t < rows; t++) {
      int from = cOff + t * ldc;
      for (int j = 0; j < n; j++) {
        acc[j][t] = c[from + j];
      }
    }
    int j = 0;
    for (; j + 2 <= n; j += 2) {
      float[] s = acc[j];
      float[] u = acc[j + 1];
      int k = 0;
      for (; k + 4 <= kn; k += 4) {
        int bi = bOff + k * ldb + j;
        float x0 = b[bi];
        float y0 = b[bi + 1];
        float x1 = b[bi + ldb];
        float y1 = b[bi + ldb + 1];
        float x2 = b[bi + 2 * ldb];
        float y2 = b[bi + 2 * ldb + 1];
        float x3 = b[bi + 3 * ldb];
        float y3 = b[bi + 3 * ldb + 1];
        float[] a0 = at[k];
        float[] a1 = at[k + 1];
        float[] a2 = at[k + 2];
        float[] a3 = at[k + 3];
        for (int t = 0; t < rows; t++) {
          float v0 = a0[t];
          float v1 = a1[t];
          float v2 = a2[t];
          float v3 = a3[t];
          s[t] = Math.fma(v3, x3, Math.fma(v2, x2, Math.fma(v1, x1, Math.fma(v0, x0, s[t]))));
          u[t] = Math.fma(v3, y3, Math.fma(v2, y2, Math.fma(v1, y1, Math.fma(v0, y0, u[t]))));
        }
      }
      for (; k < kn; k++) {
        int bi = bOff + k * ldb + j;
        float x0 = b[bi];
        float y0 = b[bi + 1];
        float[] a0 = at[k];
        for (int t = 0; t < rows; t++) {
          s[t] = Math.fma(a0[t], x0, s[t]);
          u[t] = Math.fma(a0[t], y0, u[t]);
        }
      }
    }
    if (j < n) {
      float[] s = acc[j];
      for (int k = 0; k < kn; k++) {
        float x0 = b[bOff + k * ldb + j];
        float[] a0 = at[k];
        for (int t = 0; t < rows; t++) {
          s[t] = Math.fma(a0[t], x0, s[t]);
        }
      }
    }
    for (int t = 0; t < rows; t++) {
      int to = cOff + t * ldc;
      for (int jj = 0; jj < n; jj++) {
        c[to + jj] = acc[jj][t];
      }
    }
  }

  /**
   * Columns {@code [j0, n)} of a block, element by element: what the vector tiles leave over when
   * n is not a whole number of vectors. The same chains as {@link #portable}'s, four rows at a time
   * so that four chains are in flight.
   */
  static void columns(float[] src, int[] rowAt, int rows, int[] kAt, int kn, float[] b, int bOff,
      int ldb, float[] c, int cOff, int ldc, int j0, int n) {
    int t = 0;
    for (; t + 4 <= rows; t += 4) {
      int r0 = rowAt[t];
      int r1 = rowAt[t + 1];
      int r2 = rowAt[t + 2];
      int r3 = rowAt[t + 3];
      for (int j = j0; j < n; j++) {
        int at = cOff + t * ldc + j;
        float s0 = c[at];
        float s1 = c[at + ldc];
        float s2 = c[at + 2 * ldc];
        float s3 = c[at + 3 * ldc];
        for (int k = 0; k < kn; k++) {
          int kk = kAt[k];
          float v = b[bOff + k * ldb + j];
          s0 = Math.fma(src[r0 + kk], v, s0);
          s1 = Math.fma(src[r1 + kk], v, s1);
          s2 = Math.fma(src[r2 + kk], v, s2);
          s3 = Math.fma(src[r3 + kk], v, s3);
        }
        c[at] = s0;
        c[at + ldc] = s1;
        c[at + 2 * ldc] = s2;
        c[at + 3 * ldc] = s3;
      }
    }
    for (; t < rows; t++) {
      int r = rowAt[t];
      for (int j = j0; j < n; j++) {
        int at = cOff + t * ldc + j;
        float s = c[at];
        for (int k = 0; k < kn; k++) {
          s = Math.fma(src[r + kAt[k]], b[bOff + k * ldb + j], s);
        }
        c[at] = s;
      }
    }
  }
}
