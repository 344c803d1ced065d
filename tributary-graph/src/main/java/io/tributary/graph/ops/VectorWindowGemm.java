package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link WindowGemm}'s block on the Vector API: a tile of C, a few rows by one to four vectors of
 * columns, stays in registers across the block's steps of k, each step broadcasting one element of
 * A per row (read in place from the padded source, {@code src[rowAt[i] + kAt[k]]}) and loading one
 * row of B per vector. Every element of C is one chain of fused multiply-adds over k in ascending
 * order, continued from C's value: the same bits as {@link WindowGemm#portable}, whatever the
 * vector width or tile.
 *
 * <p>The tile's shape follows the register file: with 16-lane vectors (32 registers) 6 rows by 4
 * vectors (24 accumulators, 4 rows of B and a broadcast: 29 registers), so that each step's fixed
 * work (the offset of k, the loads of B, the bounds checks of the broadcasts) is spread over 24
 * FMAs, or 8 rows by 2, sixteen accumulators; with narrower vectors (16 registers) 4 rows by 2
 * vectors. A tile past
 * the last row repeats the last row, writing the same values to it twice, so there is one path in
 * and one out: C2 keeps the accumulators in registers only then. Columns past the last whole
 * vector go through the portable loop.
 *
 * <p>Loaded only when the {@code jdk.incubator.vector} module is present (see {@link Gemm}).
 */
final class VectorWindowGemm {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();
  /** Whether the machine has 32 vector registers (AVX-512 has; AVX2 has 16). */
  private static final boolean WIDE = L >= 16;

  private VectorWindowGemm() {}

  /** As {@link WindowGemm#portable}. */
  static void block(float[] src, int[] rowAt, int rows, int[] kAt, int kn, float[] b, int bOff,
      int ldb, float[] c, int cOff, int ldc, int n) {
    int j = 0;
    if (WIDE) {
      for (; j + 4 * L <= n; j += 4 * L) {
        for (int i = 0; i < rows; i += 6) {
          tile6x4(src, rowAt, i, rows, kAt, kn, b, bOff + j, ldb, c, cOff + j, ldc);
        }
      }
      for (; j + 2 * L <= n; j += 2 * L) {
        for (int i = 0; i < rows; i += 8) {
          tile8x2(src, rowAt, i, rows, kAt, kn, b, bOff + j, ldb, c, cOff + j, ldc);
        }
      }
    } else {
      for (; j + 2 * L <= n; j += 2 * L) {
        for (int i = 0; i < rows; i += 4) {
          tile4x2(src, rowAt, i, rows, kAt, kn, b, bOff + j, ldb, c, cOff + j, ldc);
        }
      }
    }
    for (; j + L <= n; j += L) {
      for (int i = 0; i < rows; i += 4) {
        tile4x1(src, rowAt, i, rows, kAt, kn, b, bOff + j, ldb, c, cOff + j, ldc);
      }
    }
    if (j < n) {
      WindowGemm.columns(src, rowAt, rows, kAt, kn, b, bOff, ldb, c, cOff, ldc, j, n);
    }
  }

  private static void tile6x4(float[] src, int[] rowAt, int i, int rows, int[] kAt, int kn,
      float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
    int last = rows - 1;
    int q1 = Math.min(i + 1, last);
    int q2 = Math.min(i + 2, last);
    int q3 = Math.min(i + 3, last);
    int q4 = Math.min(i + 4, last);
    int q5 = Math.min(i + 5, last);
    int r0 = rowAt[i];
    int r1 = rowAt[q1];
    int r2 = rowAt[q2];
    int r3 = rowAt[q3];
    int r4 = rowAt[q4];
    int r5 = rowAt[q5];
    int c0 = cOff + i * ldc;
    int c1 = cOff + q1 * ldc;
    int c2 = cOff + q2 * ldc;
    int c3 = cOff + q3 * ldc;
    int c4 = cOff + q4 * ldc;
    int c5 = cOff + q5 * ldc;
    FloatVector x00 = FloatVector.fromArray(S, c, c0);
    FloatVector x01 = FloatVector.fromArray(S, c, c0 + L);
    FloatVector x02 = FloatVector.fromArray(S, c, c0 + 2 * L);
    FloatVector x03 = FloatVector.fromArray(S, c, c0 + 3 * L);
    FloatVector x10 = FloatVector.fromArray(S, c, c1);
    FloatVector x11 = FloatVector.fromArray(S, c, c1 + L);
    FloatVector x12 = FloatVector.fromArray(S, c, c1 + 2 * L);
    FloatVector x13 = FloatVector.fromArray(S, c, c1 + 3 * L);
    FloatVector x20 = FloatVector.fromArray(S, c, c2);
    FloatVector x21 = FloatVector.fromArray(S, c, c2 + L);
    FloatVector x22 = FloatVector.fromArray(S, c, c2 + 2 * L);
    FloatVector x23 = FloatVector.fromArray(S, c, c2 + 3 * L);
    FloatVector x30 = FloatVector.fromArray(S, c, c3);
    FloatVector x31 = FloatVector.fromArray(S, c, c3 + L);
    FloatVector x32 = FloatVector.fromArray(S, c, c3 + 2 * L);
    FloatVector x33 = FloatVector.fromArray(S, c, c3 + 3 * L);
    FloatVector x40 = FloatVector.fromArray(S, c, c4);
    FloatVector x41 = FloatVector.fromArray(S, c, c4 + L);
    FloatVector x42 = FloatVector.fromArray(S, c, c4 + 2 * L);
    FloatVector x43 = FloatVector.fromArray(S, c, c4 + 3 * L);
    FloatVector x50 = FloatVector.fromArray(S, c, c5);
    FloatVector x51 = FloatVector.fromArray(S, c, c5 + L);
    FloatVector x52 = FloatVector.fromArray(S, c, c5 + 2 * L);
    FloatVector x53 = FloatVector.fromArray(S, c, c5 + 3 * L);
    for (int k = 0; k < kn; k++) {
      int kk = kAt[k];
      int bi = bOff + k * ldb;
      FloatVector b0 = FloatVector.fromArray(S, b, bi);
      FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
      FloatVector b2 = FloatVector.fromArray(S, b, bi + 2 * L);
      FloatVector b3 = FloatVector.fromArray(S, b, bi + 3 * L);
      FloatVector a = FloatVector.broadcast(S, src[r0 + kk]);
      x00 = a.fma(b0, x00);
      x01 = a.fma(b1, x01);
      x02 = a.fma(b2, x02);
      x03 = a.fma(b3, x03);
      a = FloatVector.broadcast(S, src[r1 + kk]);
      x10 = a.fma(b0, x10);
      x11 = a.fma(b1, x11);
      x12 = a.fma(b2, x12);
      x13 = a.fma(b3, x13);
      a = FloatVector.broadcast(S, src[r2 + kk]);
      x20 = a.fma(b0, x20);
      x21 = a.fma(b1, x21);
      x22 = a.fma(b2, x22);
      x23 = a.fma(b3, x23);
      a = FloatVector.broadcast(S, src[r3 + kk]);
      x30 = a.fma(b0, x30);
      x31 = a.fma(b1, x31);
      x32 = a.fma(b2, x32);
      x33 = a.fma(b3, x33);
      a = FloatVector.broadcast(S, src[r4 + kk]);
      x40 = a.fma(b0, x40);
      x41 = a.fma(b1, x41);
      x42 = a.fma(b2, x42);
      x43 = a.fma(b3, x43);
      a = FloatVector.broadcast(S, src[r5 + kk]);
      x50 = a.fma(b0, x50);
      x51 = a.fma(b1, x51);
      x52 = a.fma(b2, x52);
      x53 = a.fma(b3, x53);
    }
    x50.intoArray(c, c5);
    x51.intoArray(c, c5 + L);
    x52.intoArray(c, c5 + 2 * L);
    x53.intoArray(c, c5 + 3 * L);
    x40.intoArray(c, c4);
    x41.intoArray(c, c4 + L);
    x42.intoArray(c, c4 + 2 * L);
    x43.intoArray(c, c4 + 3 * L);
    x30.intoArray(c, c3);
    x31.intoArray(c, c3 + L);
    x32.intoArray(c, c3 + 2 * L);
    x33.intoArray(c, c3 + 3 * L);
    x20.intoArray(c, c2);
    x21.intoArray(c, c2 + L);
    x22.intoArray(c, c2 + 2 * L);
    x23.intoArray(c, c2 + 3 * L);
    x10.intoArray(c, c1);
    x11.intoArray(c, c1 + L);
    x12.intoArray(c, c1 + 2 * L);
    x13.intoArray(c, c1 + 3 * L);
    x00.intoArray(c, c0);
    x01.intoArray(c, c0 + L);
    x02.intoArray(c, c0 + 2 * L);
    x03.intoArray(c, c0 + 3 * L);
  }

  private static void tile8x2(float[] src, int[] rowAt, int i, int rows, int[] kAt, int kn,
      float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
    int last = rows - 1;
    int q1 = Math.min(i + 1, last);
    int q2 = Math.min(i + 2, last);
    int q3 = Math.min(i + 3, last);
    int q4 = Math.min(i + 4, last);
    int q5 = Math.min(i + 5, last);
    int q6 = Math.min(i + 6, last);
    int q7 = Math.min(i + 7, last);
    int r0 = rowAt[i];
    int r1 = rowAt[q1];
    int r2 = rowAt[q2];
    int r3 = rowAt[q3];
    int r4 = rowAt[q4];
    int r5 = rowAt[q5];
    int r6 = rowAt[q6];
    int r7 = rowAt[q7];
    int c0 = cOff + i * ldc;
    int c1 = cOff + q1 * ldc;
    int c2 = cOff + q2 * ldc;
    int c3 = cOff + q3 * ldc;
    int c4 = cOff + q4 * ldc;
    int c5 = cOff + q5 * ldc;
    int c6 = cOff + q6 * ldc;
    int c7 = cOff + q7 * ldc;
    FloatVector x00 = FloatVector.fromArray(S, c, c0);
    FloatVector x01 = FloatVector.fromArray(S, c, c0 + L);
    FloatVector x10 = FloatVector.fromArray(S, c, c1);
    FloatVector x11 = FloatVector.fromArray(S, c, c1 + L);
    FloatVector x20 = FloatVector.fromArray(S, c, c2);
    FloatVector x21 = FloatVector.fromArray(S, c, c2 + L);
    FloatVector x30 = FloatVector.fromArray(S, c, c3);
    FloatVector x31 = FloatVector.fromArray(S, c, c3 + L);
    FloatVector x40 = FloatVector.fromArray(S, c, c4);
    FloatVector x41 = FloatVector.fromArray(S, c, c4 + L);
    FloatVector x50 = FloatVector.fromArray(S, c, c5);
    FloatVector x51 = FloatVector.fromArray(S, c, c5 + L);
    FloatVector x60 = FloatVector.fromArray(S, c, c6);
    FloatVector x61 = FloatVector.fromArray(S, c, c6 + L);
    FloatVector x70 = FloatVector.fromArray(S, c, c7);
    FloatVector x71 = FloatVector.fromArray(S, c, c7 + L);
    for (int k = 0; k < kn; k++) {
      int kk = kAt[k];
      int bi = bOff + k * ldb;
      FloatVector b0 = FloatVector.fromArray(S, b, bi);
      FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
      FloatVector a = FloatVector.broadcast(S, src[r0 + kk]);
      x00 = a.fma(b0, x00);
      x01 = a.fma(b1, x01);
      a = FloatVector.broadcast(S, src[r1 + kk]);
      x10 = a.fma(b0, x10);
      x11 = a.fma(b1, x11);
      a = FloatVector.broadcast(S, src[r2 + kk]);
      x20 = a.fma(b0, x20);
      x21 = a.fma(b1, x21);
      a = FloatVector.broadcast(S, src[r3 + kk]);
      x30 = a.fma(b0, x30);
      x31 = a.fma(b1, x31);
      a = FloatVector.broadcast(S, src[r4 + kk]);
      x40 = a.fma(b0, x40);
      x41 = a.fma(b1, x41);
      a = FloatVector.broadcast(S, src[r5 + kk]);
      x50 = a.fma(b0, x50);
      x51 = a.fma(b1, x51);
      a = FloatVector.broadcast(S, src[r6 + kk]);
      x60 = a.fma(b0, x60);
      x61 = a.fma(b1, x61);
      a = FloatVector.broadcast(S, src[r7 + kk]);
      x70 = a.fma(b0, x70);
      x71 = a.fma(b1, x71);
    }
    x70.intoArray(c, c7);
    x71.intoArray(c, c7 + L);
    x60.intoArray(c, c6);
    x61.intoArray(c, c6 + L);
    x50.intoArray(c, c5);
    x51.intoArray(c, c5 + L);
    x40.intoArray(c, c4);
    x41.intoArray(c, c4 + L);
    x30.intoArray(c, c3);
    x31.intoArray(c, c3 + L);
    x20.intoArray(c, c2);
    x21.intoArray(c, c2 + L);
    x10.intoArray(c, c1);
    x11.intoArray(c, c1 + L);
    x00.intoArray(c, c0);
    x01.intoArray(c, c0 + L);
  }

  private static void tile4x2(float[] src, int[] rowAt, int i, int rows, int[] kAt, int kn,
      float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
    int last = rows - 1;
    int q1 = Math.min(i + 1, last);
    int q2 = Math.min(i + 2, last);
    int q3 = Math.min(i + 3, last);
    int r0 = rowAt[i];
    int r1 = rowAt[q1];
    int r2 = rowAt[q2];
    int r3 = rowAt[q3];
    int c0 = cOff + i * ldc;
    int c1 = cOff + q1 * ldc;
    int c2 = cOff + q2 * ldc;
    int c3 = cOff + q3 * ldc;
    FloatVector x00 = FloatVector.fromArray(S, c, c0);
    FloatVector x01 = FloatVector.fromArray(S, c, c0 + L);
    FloatVector x10 = FloatVector.fromArray(S, c, c1);
    FloatVector x11 = FloatVector.fromArray(S, c, c1 + L);
    FloatVector x20 = FloatVector.fromArray(S, c, c2);
    FloatVector x21 = FloatVector.fromArray(S, c, c2 + L);
    FloatVector x30 = FloatVector.fromArray(S, c, c3);
    FloatVector x31 = FloatVector.fromArray(S, c, c3 + L);
    for (int k = 0; k < kn; k++) {
      int kk = kAt[k];
      int bi = bOff + k * ldb;
      FloatVector b0 = FloatVector.fromArray(S, b, bi);
      FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
      FloatVector a = FloatVector.broadcast(S, src[r0 + kk]);
      x00 = a.fma(b0, x00);
      x01 = a.fma(b1, x01);
      a = FloatVector.broadcast(S, src[r1 + kk]);
      x10 = a.fma(b0, x10);
      x11 = a.fma(b1, x11);
      a = FloatVector.broadcast(S, src[r2 + kk]);
      x20 = a.fma(b0, x20);
      x21 = a.fma(b1, x21);
      a = FloatVector.broadcast(S, src[r3 + kk]);
      x30 = a.fma(b0, x30);
      x31 = a.fma(b1, x31);
    }
    x30.intoArray(c, c3);
    x31.intoArray(c, c3 + L);
    x20.intoArray(c, c2);
    x21.intoArray(c, c2 + L);
    x10.intoArray(c, c1);
    x11.intoArray(c, c1 + L);
    x00.intoArray(c, c0);
    x01.intoArray(c, c0 + L);
  }

  private static void tile4x1(float[] src, int[] rowAt, int i, int rows, int[] kAt, int kn,
      float[] b, int bOff, int ldb, float[] c, int cOff, int ldc) {
    int last = rows - 1;
    int q1 = Math.min(i + 1, last);
    int q2 = Math.min(i + 2, last);
    int q3 = Math.min(i + 3, last);
    int r0 = rowAt[i];
    int r1 = rowAt[q1];
    int r2 = rowAt[q2];
    int r3 = rowAt[q3];
    int c0 = cOff + i * ldc;
    int c1 = cOff + q1 * ldc;
    int c2 = cOff + q2 * ldc;
    int c3 = cOff + q3 * ldc;
    FloatVector x0 = FloatVector.fromArray(S, c, c0);
    FloatVector x1 = FloatVector.fromArray(S, c, c1);
    FloatVector x2 = FloatVector.fromArray(S, c, c2);
    FloatVector x3 = FloatVector.fromArray(S, c, c3);
    for (int k = 0; k < kn; k++) {
      int kk = kAt[k];
      FloatVector b0 = FloatVector.fromArray(S, b, bOff + k * ldb);
      x0 = FloatVector.broadcast(S, src[r0 + kk]).fma(b0, x0);
      x1 = FloatVector.broadcast(S, src[r1 + kk]).fma(b0, x1);
      x2 = FloatVector.broadcast(S, src[r2 + kk]).fma(b0, x2);
      x3 = FloatVector.broadcast(S, src[r3 + kk]).fma(b0, x3);
    }
    x3.intoArray(c, c3);
    x2.intoArray(c, c2);
    x1.intoArray(c, c1);
    x0.intoArray(c, c0);
  }
}
