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
  /** The fewest rows of C per block (the portable loop's rows): a multiple of every tile's height. */
  static final int ROWS = 64;
  /** Floats of B per block of k on the Vector API (32 KiB). */
  static final int B_BLOCK_FLOATS = 8192;
  /**
   * Floats of B per block of k (16 KiB) where each step of k reads A from cache lines of its own
   * (the filter gradient's, whose k runs over output positions): half of L1 is left to them.
   */
  static final int B_BLOCK_FLOATS_STRIDED_A = 4096;
  /** Floats of C per block of rows on the Vector API (128 KiB). */
  private static final int C_BLOCK_FLOATS = 32768;

  /** Fills {@code into[0, count)} with the offsets of rows (or steps) {@code [from, from+count)}. */
  @FunctionalInterface
  interface Offsets {
    void fill(int[] into, int from, int count);
  }

  /**
   * Runs on rows {@code [from, from+count)} of C once their chains are complete, while the row
   * block is still in cache (a fused bias and ReLU, say).
   */
  @FunctionalInterface
  interface Finish {
    void rows(int from, int count);
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
    multiply(vector, src, rows, i0, i1, steps, kn, b, ldb, c, ldc, n, null, B_BLOCK_FLOATS);
  }

  /**
   * As {@link #multiply(boolean, float[], Offsets, int, int, Offsets, int, float[], int, float[],
   * int, int)}, then {@code finish} (unless null) on each block of rows as soon as it is complete,
   * with {@code bFloats} floats of B per block of k on the Vector API (the blocks change no bits:
   * each chain continues from block to block in k's order).
   */
  static void multiply(boolean vector, float[] src, Offsets rows, int i0, int i1, Offsets steps,
      int kn, float[] b, int ldb, float[] c, int ldc, int n, Finish finish, int bFloats) {
    // On the Vector API, a block of B stays in L1 for the whole row block and a row block of C in
    // L2; the portable loop copies B's rows as it goes and keeps a row block's sums in L1.
    int kc = vector ? Math.max(16, bFloats / Math.max(1, n)) : Math.max(1, kn);
    int rb = vector ? Math.clamp(C_BLOCK_FLOATS / Math.max(1, n) / 8 * 8, ROWS, 16 * ROWS)
        : ROWS;
    int[] rowAt = new int[Math.min(rb, Math.max(0, i1 - i0))];
    int[] kAt = new int[Math.min(kc, kn)];
    float[][] acc = vector ? null : new float[rowAt.length][n];
    float[][] bRows = vector ? null : new float[4][n];
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
          portable(src, rowAt, count, kAt, kb, b, k0 * ldb, ldb, c, r0 * ldc, ldc, n, acc, bRows);
        }
      }
      if (finish != null) {
        finish.rows(r0, count);
      }
    }
  }

  /**
   * One block in plain loops: {@code C[t][j] += sum over k < kn of src[rowAt[t] + kAt[k]] * b[bOff
   * + k * ldb + j]} for the rows {@code t < rows}, C's row t at {@code cOff + t * ldc}, each
   * element's chain continued in k's order. Each row's sums are kept in an array of their own and
   * four rows of B are copied into arrays of their own, all indexed from 0: C2 vectorizes the loop
   * over j only then (with two offsets into arrays that might be one, it does not). Two rows and
   * four steps of k go together, nesting four FMAs per element in k's order: each sum is loaded and
   * stored once per four steps, each load of B serves two rows (two chains in flight hide the FMA
   * latency), and each copied row of B serves every row of the block.
   */
  static void portable(float[] src, int[] rowAt, int rows, int[] kAt, int kn, float[] b, int bOff,
      int ldb, float[] c, int cOff, int ldc, int n, float[][] acc, float[][] bRows) {
    for (int t = 0; t < rows; t++) {
      System.arraycopy(c, cOff + t * ldc, acc[t], 0, n);
    }
    float[] b0 = bRows[0];
    float[] b1 = bRows[1];
    float[] b2 = bRows[2];
    float[] b3 = bRows[3];
    int k = 0;
    for (; k + 4 <= kn; k += 4) {
      int at = bOff + k * ldb;
      System.arraycopy(b, at, b0, 0, n);
      System.arraycopy(b, at + ldb, b1, 0, n);
      System.arraycopy(b, at + 2 * ldb, b2, 0, n);
      System.arraycopy(b, at + 3 * ldb, b3, 0, n);
      int k0 = kAt[k];
      int k1 = kAt[k + 1];
      int k2 = kAt[k + 2];
      int k3 = kAt[k + 3];
      int t = 0;
      for (; t + 2 <= rows; t += 2) {
        int r = rowAt[t];
        float x0 = src[r + k0];
        float x1 = src[r + k1];
        float x2 = src[r + k2];
        float x3 = src[r + k3];
        r = rowAt[t + 1];
        float y0 = src[r + k0];
        float y1 = src[r + k1];
        float y2 = src[r + k2];
        float y3 = src[r + k3];
        float[] s = acc[t];
        float[] u = acc[t + 1];
        for (int j = 0; j < n; j++) {
          float v0 = b0[j];
          float v1 = b1[j];
          float v2 = b2[j];
          float v3 = b3[j];
          s[j] = Math.fma(x3, v3, Math.fma(x2, v2, Math.fma(x1, v1, Math.fma(x0, v0, s[j]))));
          u[j] = Math.fma(y3, v3, Math.fma(y2, v2, Math.fma(y1, v1, Math.fma(y0, v0, u[j]))));
        }
      }
      if (t < rows) {
        int r = rowAt[t];
        float x0 = src[r + k0];
        float x1 = src[r + k1];
        float x2 = src[r + k2];
        float x3 = src[r + k3];
        float[] s = acc[t];
        for (int j = 0; j < n; j++) {
          s[j] = Math.fma(x3, b3[j], Math.fma(x2, b2[j], Math.fma(x1, b1[j],
              Math.fma(x0, b0[j], s[j]))));
        }
      }
    }
    for (; k < kn; k++) {
      System.arraycopy(b, bOff + k * ldb, b0, 0, n);
      int kk = kAt[k];
      for (int t = 0; t < rows; t++) {
        float x0 = src[rowAt[t] + kk];
        float[] s = acc[t];
        for (int j = 0; j < n; j++) {
          s[j] = Math.fma(x0, b0[j], s[j]);
        }
      }
    }
    for (int t = 0; t < rows; t++) {
      System.arraycopy(acc[t], 0, c, cOff + t * ldc, n);
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
