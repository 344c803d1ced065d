package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The float32 matrix product on the Vector API: B is packed into panels two vectors wide, A into
 * strips of {@link #MR} rows, and a register-blocked micro-kernel keeps an MR x (2 vectors) tile of C
 * in registers (MR = 4 with 256-bit vectors, 8 with 512-bit ones) across a block of {@link #KC}
 * steps of k. Transposed operands are handled while packing, so they cost
 * nothing extra.
 *
 * <p>The tile starts each block from C's current values, not from zero, so every element of C is
 * one chain of fused multiply-adds over k in ascending order: the same bits as {@link Gemm}'s
 * portable loop and {@link NarrowGemm}, whatever the vector width.
 *
 * <p>Loaded only when the {@code jdk.incubator.vector} module is present (see {@link Gemm}).
 */
final class VectorGemm {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();
  private static final int NR = 2 * L;
  /**
   * Rows of the register tile: 4 with 256-bit vectors (16 registers: with 6 rows C2 spills
   * accumulators and runs at half the speed), 8 with 512-bit ones, whose 32 registers hold the 16
   * accumulators, both vectors of B and the broadcast of A, so that each load of B serves twice as
   * many fused multiply-adds. The tile's shape does not change any element's chain.
   */
  private static final int MR = L >= 16 ? 8 : 4;
  /** Steps of k per block; a product whose k fits one block can be scaled as it is stored. */
  static final int KC = 256;
  private static final int DIRECT_MAX_ROWS = 64;
  /**
   * Columns of B per packed block: 128 with 256-bit vectors; 512 with 512-bit ones, where 2 MiB
   * of L2 per core hold the block (512 KiB): A's strips, packed again for every block of B, are
   * then packed once per 512 columns instead of four times.
   */
  private static final int NC = Integer.getInteger("tributary.gemm.nc", L >= 16 ? 512 : 128);

  /**
   * Each thread's packing buffers, sized for the largest block ({@link #NC} x {@link #KC}): a
   * training step makes several products, and allocating (and zeroing) a block of B per product
   * cost more than some of the products themselves. They are scratch: every element a product
   * reads is written by that product first (panels and strips are packed with their padding), so
   * what a thread's earlier products left there cannot reach a result.
   */
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** One thread's packing buffers. */
  private static final class Scratch {
    final float[] bp = new float[((NC + NR - 1) / NR) * KC * NR];
    final float[] ap = new float[KC * MR];
    final float[] tile = new float[MR * NR];
    /** Lane offsets for gathers from a transposed B ({@link #gatherOffsets}). */
    final int[] rowsAt = new int[Math.max(2, L)];
  }

  private VectorGemm() {}

  /** {@code c = op(a) op(b)}; sizes are checked by the caller. */
  static void multiply(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b, float[] c) {
    multiply(ta, tb, m, n, k, a, b, c, 0, m);
  }

  /**
   * Rows {@code [from, to)} of {@code c = op(a) op(b)}, leaving C's other rows alone; {@code from}
   * is a multiple of {@link #MR} or 0. Sizes are checked by the caller.
   */
  static void multiply(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b, float[] c,
      int from, int to) {
    multiply(ta, tb, m, n, k, a, 0, b, c, 0, from, to, false);
  }

  /**
   * Rows {@code [from, to)} of {@code c = op(a) op(b)}, or, with {@code accumulate}, of C's chains
   * continued over this k ({@code c += op(a) op(b)}, each element's fused multiply-adds going on
   * from its current value: two calls over the two halves of k give the bits of one call over
   * all of it). A starts at {@code aOff} and C at {@code cOff} in their arrays.
   */
  static void multiply(boolean ta, boolean tb, int m, int n, int k, float[] a, int aOff,
      float[] b, float[] c, int cOff, int from, int to, boolean accumulate) {
    multiply(ta, tb, m, n, k, a, aOff, b, c, cOff, from, to, 0, n, accumulate, false, 1f, 0f);
  }

  /**
   * Columns {@code [colFrom, colTo)} of {@code c = op(a) op(b)} (or of its scaled form {@code
   * alpha op(a) op(b) + beta c} with {@code scaled}, for {@code 0 < k <=} {@link #KC}), leaving
   * C's other columns alone. How a product of few rows is split over threads: each thread packs
   * and streams only its own columns of B. Every element is the same chain as in a whole
   * product, wherever the columns start. Sizes are checked by the caller.
   */
  static void multiplyColumns(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b,
      float[] c, int colFrom, int colTo, boolean scaled, float alpha, float beta) {
    if (scaled && (k <= 0 || k > KC)) {
      throw new IllegalArgumentException("a scaled product needs 0 < k <= " + KC + ", got " + k);
    }
    multiply(ta, tb, m, n, k, a, 0, b, c, 0, 0, m, colFrom, colTo, false, scaled, alpha, beta);
  }

  /** The rows of one register tile: a row split's parts best start at multiples of this. */
  static int rowAlign() {
    return MR;
  }

  /** The columns of one vector: a column split's parts best start at multiples of this. */
  static int columnAlign() {
    return L;
  }

  /**
   * Rows {@code [from, to)} of {@code c = alpha op(a) op(b) + beta c} for {@code 0 < k <=} {@link
   * #KC}: each tile's sums start from zero and each finished element p is stored as {@link
   * Gemm#combine}(p, alpha, beta, c), in one pass, so the product is never stored and B is packed
   * once for all the rows. The same bits as computing the product, then combining.
   */
  static void multiplyScaled(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b,
      float[] c, int from, int to, float alpha, float beta) {
    if (k <= 0 || k > KC) {
      throw new IllegalArgumentException("a scaled product needs 0 < k <= " + KC + ", got " + k);
    }
    multiply(ta, tb, m, n, k, a, 0, b, c, 0, from, to, 0, n, false, true, alpha, beta);
  }

  private static void multiply(boolean ta, boolean tb, int m, int n, int k, float[] a, int aOff,
      float[] b, float[] c, int cOff, int from, int to, int colFrom, int colTo, boolean accumulate,
      boolean scaled, float alpha, float beta) {
    if (!accumulate && !scaled) {
      if (colFrom == 0 && colTo == n) {
        java.util.Arrays.fill(c, cOff + from * n, cOff + to * n, 0f);
      } else {
        for (int i = from; i < to; i++) {
          java.util.Arrays.fill(c, cOff + i * n + colFrom, cOff + i * n + colTo, 0f);
        }
      }
    }
    if (from >= to || colFrom >= colTo || k == 0) {
      return;
    }
    Scratch scratch = SCRATCH.get();
    float[] bp = scratch.bp;
    float[] ap = scratch.ap;
    float[] tile = scratch.tile;
    // Loop order after Goto/BLIS: a KC x NC block of B is packed once and stays in L2 while every
    // MR-row strip of A passes over it; each NR-wide micro-panel of B stays in L1 for one strip.
    for (int j0 = colFrom; j0 < colTo; j0 += NC) {
      int nc = Math.min(NC, colTo - j0);
      int panels = (nc + NR - 1) / NR;
      for (int p0 = 0; p0 < k; p0 += KC) {
        int kc = Math.min(KC, k - p0);
        // With few rows of A, each panel of B is used only a few times: reading a row-major B in
        // place beats copying it, except for a ragged last panel, which is packed (zero-padded).
        boolean direct = !tb && m <= DIRECT_MAX_ROWS;
        packB(tb, b, n, k, p0, kc, j0, nc, panels, bp, direct);
        for (int i0 = from; i0 < to; i0 += MR) {
          int rows = Math.min(MR, to - i0);
          // A strip of at most 4 rows goes through the 4-row tile even where the tile is taller:
          // a batch of 10 (two strips of 8, the second 2 rows) would otherwise compute 6 rows of
          // zeros.
          int mr = rows <= 4 ? 4 : MR;
          packA(ta, a, aOff, m, k, i0, rows, mr, p0, kc, ap);
          for (int jp = 0; jp < panels; jp++) {
            int jj = j0 + jp * NR;
            int cols = Math.min(NR, j0 + nc - jj);
            if (direct && cols == NR) {
              kernel(mr, kc, ap, b, p0 * n + jj, n, c, cOff + i0 * n + jj, n, rows, cols, tile,
                  scaled, alpha, beta);
            } else {
              kernel(mr, kc, ap, bp, jp * kc * NR, NR, c, cOff + i0 * n + jj, n, rows, cols, tile,
                  scaled, alpha, beta);
            }
          }
        }
      }
    }
  }

  /** Panel jp holds B[p0 .. p0+kc, jStart+jp*NR .. +NR] row after row, zero-padded past n. */
  private static void packB(boolean tb, float[] b, int n, int k, int p0, int kc, int jStart, int nc,
      int panels, float[] bp, boolean raggedOnly) {
    for (int jp = 0; jp < panels; jp++) {
      int j0 = jStart + jp * NR;
      int cols = Math.min(NR, jStart + nc - j0);
      if (raggedOnly && cols == NR) {
        continue;
      }
      int base = jp * kc * NR;
      if (tb && cols == NR && L >= 16) {
        // Row p of the panel is column p0 + p of B's rows j0 .. j0+NR: a gather per vector (one
        // instruction with 512-bit vectors, which have it fast), so a large transposed B (a
        // layer's weights in its input gradient) is packed a vector at a time.
        int[] rowsAt = gatherOffsets(k);
        for (int p = 0, to = base; p < kc; p++, to += NR) {
          for (int v = 0; v < NR; v += L) {
            FloatVector.fromArray(S, b, (j0 + v) * k + p0 + p, rowsAt, 0).intoArray(bp, to + v);
          }
        }
        continue;
      }
      if (tb) {
        // Column j of the panel is row j0 + j of B: read each along, so that the reads stream
        // and only the panel (in L1) is written across.
        for (int j = 0; j < cols; j++) {
          int from = (j0 + j) * k + p0;
          for (int p = 0, to = base + j; p < kc; p++, to += NR) {
            bp[to] = b[from + p];
          }
        }
        if (cols < NR) {
          for (int p = 0; p < kc; p++) {
            java.util.Arrays.fill(bp, base + p * NR + cols, base + (p + 1) * NR, 0f);
          }
        }
        continue;
      }
      for (int p = 0; p < kc; p++) {
        int to = base + p * NR;
        System.arraycopy(b, (p0 + p) * n + j0, bp, to, cols);
        for (int j = cols; j < NR; j++) {
          bp[to + j] = 0f;
        }
      }
    }
  }

  /** Offsets 0, k, 2k, ... of one vector's lanes: the rows of a transposed B a gather reads. */
  private static int[] gatherOffsets(int k) {
    int[] at = SCRATCH.get().rowsAt;
    if (at[1] != k) {
      for (int l = 0; l < L; l++) {
        at[l] = l * k;
      }
    }
    return at;
  }

  /**
   * The strip holds A[i0 .. i0+mr, p0 .. p0+kc] column after column ({@code mr} floats per step of
   * k), zero-padded past the strip's rows.
   */
  private static void packA(boolean ta, float[] a, int aOff, int m, int k, int i0, int rows,
      int mr, int p0, int kc, float[] ap) {
    if (ta) {
      // A few floats per step: a loop, not System.arraycopy, whose call costs more than that.
      for (int p = 0; p < kc; p++) {
        int from = aOff + (p0 + p) * m + i0;
        int to = p * mr;
        for (int r = 0; r < rows; r++) {
          ap[to + r] = a[from + r];
        }
      }
    } else {
      // Row r of the strip is read along A's row, written across the strip.
      for (int r = 0; r < rows; r++) {
        int from = aOff + (i0 + r) * k + p0;
        for (int p = 0, to = r; p < kc; p++, to += mr) {
          ap[to] = a[from + p];
        }
      }
    }
    if (rows < mr) {
      for (int p = 0; p < kc; p++) {
        java.util.Arrays.fill(ap, p * mr + rows, (p + 1) * mr, 0f);
      }
    }
  }

  /**
   * C tile += A strip x B panel, where row p of the panel starts at bOff + p * ldb; with {@code
   * scaled}, C tile = combine(A strip x B panel, alpha, beta, C tile) instead.
   */
  private static void kernel(int mr, int kc, float[] ap, float[] bp, int bOff, int ldb, float[] c,
      int cOff, int ldc, int rows, int cols, float[] tile, boolean scaled, float alpha,
      float beta) {
    if (mr == 8) {
      kernel8(kc, ap, bp, bOff, ldb, c, cOff, ldc, rows, cols, tile, scaled, alpha, beta);
    } else {
      kernel4(kc, ap, bp, bOff, ldb, c, cOff, ldc, rows, cols, tile, scaled, alpha, beta);
    }
  }

  /** {@link #kernel} for a tile of 4 rows. */
  private static void kernel4(int kc, float[] ap, float[] bp, int bOff, int ldb, float[] c,
      int cOff, int ldc, int rows, int cols, float[] tile, boolean scaled, float alpha,
      float beta) {
    // Always enter through the tile, as the results leave through it: one path in and out lets C2
    // hold all the accumulators in registers.
    if (scaled) {
      java.util.Arrays.fill(tile, 0f);
    } else {
      loadTile(tile, c, cOff, ldc, rows, cols, 4);
    }
    FloatVector c00 = FloatVector.fromArray(S, tile, 0);
    FloatVector c01 = FloatVector.fromArray(S, tile, L);
    FloatVector c10 = FloatVector.fromArray(S, tile, NR);
    FloatVector c11 = FloatVector.fromArray(S, tile, NR + L);
    FloatVector c20 = FloatVector.fromArray(S, tile, 2 * NR);
    FloatVector c21 = FloatVector.fromArray(S, tile, 2 * NR + L);
    FloatVector c30 = FloatVector.fromArray(S, tile, 3 * NR);
    FloatVector c31 = FloatVector.fromArray(S, tile, 3 * NR + L);
    for (int p = 0; p < kc; p++) {
      int bi = bOff + p * ldb;
      FloatVector b0 = FloatVector.fromArray(S, bp, bi);
      FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
      int ai = p * 4;
      FloatVector a = FloatVector.broadcast(S, ap[ai]);
      c00 = a.fma(b0, c00);
      c01 = a.fma(b1, c01);
      a = FloatVector.broadcast(S, ap[ai + 1]);
      c10 = a.fma(b0, c10);
      c11 = a.fma(b1, c11);
      a = FloatVector.broadcast(S, ap[ai + 2]);
      c20 = a.fma(b0, c20);
      c21 = a.fma(b1, c21);
      a = FloatVector.broadcast(S, ap[ai + 3]);
      c30 = a.fma(b0, c30);
      c31 = a.fma(b1, c31);
    }
    // Always spill through the tile: keeping one exit path lets C2 hold all twelve accumulators in
    // registers instead of boxing them for a rarely taken edge branch.
    c00.intoArray(tile, 0);
    c01.intoArray(tile, L);
    c10.intoArray(tile, NR);
    c11.intoArray(tile, NR + L);
    c20.intoArray(tile, 2 * NR);
    c21.intoArray(tile, 2 * NR + L);
    c30.intoArray(tile, 3 * NR);
    c31.intoArray(tile, 3 * NR + L);
    if (scaled) {
      storeScaled(tile, c, cOff, ldc, rows, cols, alpha, beta);
    } else {
      storeTile(tile, c, cOff, ldc, rows, cols);
    }
  }

  /**
   * {@link #kernel} for a tile of 8 rows (512-bit vectors: 16 accumulators in 32 registers), four
   * steps of k per pass of the loop: each step's fused multiply-adds in the order of one step at a
   * time, with a quarter of the loop's own work (about 12% faster on a 512^3 product).
   */
  private static void kernel8(int kc, float[] ap, float[] bp, int bOff, int ldb, float[] c,
      int cOff, int ldc, int rows, int cols, float[] tile, boolean scaled, float alpha,
      float beta) {
    if (scaled) {
      java.util.Arrays.fill(tile, 0f);
    } else {
      loadTile(tile, c, cOff, ldc, rows, cols, 8);
    }
    FloatVector c00 = FloatVector.fromArray(S, tile, 0 * NR + 0 * L);
    FloatVector c01 = FloatVector.fromArray(S, tile, 0 * NR + 1 * L);
    FloatVector c10 = FloatVector.fromArray(S, tile, 1 * NR + 0 * L);
    FloatVector c11 = FloatVector.fromArray(S, tile, 1 * NR + 1 * L);
    FloatVector c20 = FloatVector.fromArray(S, tile, 2 * NR + 0 * L);
    FloatVector c21 = FloatVector.fromArray(S, tile, 2 * NR + 1 * L);
    FloatVector c30 = FloatVector.fromArray(S, tile, 3 * NR + 0 * L);
    FloatVector c31 = FloatVector.fromArray(S, tile, 3 * NR + 1 * L);
    FloatVector c40 = FloatVector.fromArray(S, tile, 4 * NR + 0 * L);
    FloatVector c41 = FloatVector.fromArray(S, tile, 4 * NR + 1 * L);
    FloatVector c50 = FloatVector.fromArray(S, tile, 5 * NR + 0 * L);
    FloatVector c51 = FloatVector.fromArray(S, tile, 5 * NR + 1 * L);
    FloatVector c60 = FloatVector.fromArray(S, tile, 6 * NR + 0 * L);
    FloatVector c61 = FloatVector.fromArray(S, tile, 6 * NR + 1 * L);
    FloatVector c70 = FloatVector.fromArray(S, tile, 7 * NR + 0 * L);
    FloatVector c71 = FloatVector.fromArray(S, tile, 7 * NR + 1 * L);
    int p = 0;
    for (; p + 4 <= kc; p += 4) {
      {
        int bi = bOff + p * ldb;
        FloatVector b0 = FloatVector.fromArray(S, bp, bi);
        FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
        int ai = p * 8;
        FloatVector a = FloatVector.broadcast(S, ap[ai]);
        c00 = a.fma(b0, c00);
        c01 = a.fma(b1, c01);
        a = FloatVector.broadcast(S, ap[ai + 1]);
        c10 = a.fma(b0, c10);
        c11 = a.fma(b1, c11);
        a = FloatVector.broadcast(S, ap[ai + 2]);
        c20 = a.fma(b0, c20);
        c21 = a.fma(b1, c21);
        a = FloatVector.broadcast(S, ap[ai + 3]);
        c30 = a.fma(b0, c30);
        c31 = a.fma(b1, c31);
        a = FloatVector.broadcast(S, ap[ai + 4]);
        c40 = a.fma(b0, c40);
        c41 = a.fma(b1, c41);
        a = FloatVector.broadcast(S, ap[ai + 5]);
        c50 = a.fma(b0, c50);
        c51 = a.fma(b1, c51);
        a = FloatVector.broadcast(S, ap[ai + 6]);
        c60 = a.fma(b0, c60);
        c61 = a.fma(b1, c61);
        a = FloatVector.broadcast(S, ap[ai + 7]);
        c70 = a.fma(b0, c70);
        c71 = a.fma(b1, c71);
      }
      {
        int bi = bOff + (p + 1) * ldb;
        FloatVector b0 = FloatVector.fromArray(S, bp, bi);
        FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
        int ai = (p + 1) * 8;
        FloatVector a = FloatVector.broadcast(S, ap[ai]);
        c00 = a.fma(b0, c00);
        c01 = a.fma(b1, c01);
        a = FloatVector.broadcast(S, ap[ai + 1]);
        c10 = a.fma(b0, c10);
        c11 = a.fma(b1, c11);
        a = FloatVector.broadcast(S, ap[ai + 2]);
        c20 = a.fma(b0, c20);
        c21 = a.fma(b1, c21);
        a = FloatVector.broadcast(S, ap[ai + 3]);
        c30 = a.fma(b0, c30);
        c31 = a.fma(b1, c31);
        a = FloatVector.broadcast(S, ap[ai + 4]);
        c40 = a.fma(b0, c40);
        c41 = a.fma(b1, c41);
        a = FloatVector.broadcast(S, ap[ai + 5]);
        c50 = a.fma(b0, c50);
        c51 = a.fma(b1, c51);
        a = FloatVector.broadcast(S, ap[ai + 6]);
        c60 = a.fma(b0, c60);
        c61 = a.fma(b1, c61);
        a = FloatVector.broadcast(S, ap[ai + 7]);
        c70 = a.fma(b0, c70);
        c71 = a.fma(b1, c71);
      }
      {
        int bi = bOff + (p + 2) * ldb;
        FloatVector b0 = FloatVector.fromArray(S, bp, bi);
        FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
        int ai = (p + 2) * 8;
        FloatVector a = FloatVector.broadcast(S, ap[ai]);
        c00 = a.fma(b0, c00);
        c01 = a.fma(b1, c01);
        a = FloatVector.broadcast(S, ap[ai + 1]);
        c10 = a.fma(b0, c10);
        c11 = a.fma(b1, c11);
        a = FloatVector.broadcast(S, ap[ai + 2]);
        c20 = a.fma(b0, c20);
        c21 = a.fma(b1, c21);
        a = FloatVector.broadcast(S, ap[ai + 3]);
        c30 = a.fma(b0, c30);
        c31 = a.fma(b1, c31);
        a = FloatVector.broadcast(S, ap[ai + 4]);
        c40 = a.fma(b0, c40);
        c41 = a.fma(b1, c41);
        a = FloatVector.broadcast(S, ap[ai + 5]);
        c50 = a.fma(b0, c50);
        c51 = a.fma(b1, c51);
        a = FloatVector.broadcast(S, ap[ai + 6]);
        c60 = a.fma(b0, c60);
        c61 = a.fma(b1, c61);
        a = FloatVector.broadcast(S, ap[ai + 7]);
        c70 = a.fma(b0, c70);
        c71 = a.fma(b1, c71);
      }
      {
        int bi = bOff + (p + 3) * ldb;
        FloatVector b0 = FloatVector.fromArray(S, bp, bi);
        FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
        int ai = (p + 3) * 8;
        FloatVector a = FloatVector.broadcast(S, ap[ai]);
        c00 = a.fma(b0, c00);
        c01 = a.fma(b1, c01);
        a = FloatVector.broadcast(S, ap[ai + 1]);
        c10 = a.fma(b0, c10);
        c11 = a.fma(b1, c11);
        a = FloatVector.broadcast(S, ap[ai + 2]);
        c20 = a.fma(b0, c20);
        c21 = a.fma(b1, c21);
        a = FloatVector.broadcast(S, ap[ai + 3]);
        c30 = a.fma(b0, c30);
        c31 = a.fma(b1, c31);
        a = FloatVector.broadcast(S, ap[ai + 4]);
        c40 = a.fma(b0, c40);
        c41 = a.fma(b1, c41);
        a = FloatVector.broadcast(S, ap[ai + 5]);
        c50 = a.fma(b0, c50);
        c51 = a.fma(b1, c51);
        a = FloatVector.broadcast(S, ap[ai + 6]);
        c60 = a.fma(b0, c60);
        c61 = a.fma(b1, c61);
        a = FloatVector.broadcast(S, ap[ai + 7]);
        c70 = a.fma(b0, c70);
        c71 = a.fma(b1, c71);
      }
    }
    for (; p < kc; p++) {
      int bi = bOff + p * ldb;
      FloatVector b0 = FloatVector.fromArray(S, bp, bi);
      FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
      int ai = p * 8;
      FloatVector a = FloatVector.broadcast(S, ap[ai]);
      c00 = a.fma(b0, c00);
      c01 = a.fma(b1, c01);
      a = FloatVector.broadcast(S, ap[ai + 1]);
      c10 = a.fma(b0, c10);
      c11 = a.fma(b1, c11);
      a = FloatVector.broadcast(S, ap[ai + 2]);
      c20 = a.fma(b0, c20);
      c21 = a.fma(b1, c21);
      a = FloatVector.broadcast(S, ap[ai + 3]);
      c30 = a.fma(b0, c30);
      c31 = a.fma(b1, c31);
      a = FloatVector.broadcast(S, ap[ai + 4]);
      c40 = a.fma(b0, c40);
      c41 = a.fma(b1, c41);
      a = FloatVector.broadcast(S, ap[ai + 5]);
      c50 = a.fma(b0, c50);
      c51 = a.fma(b1, c51);
      a = FloatVector.broadcast(S, ap[ai + 6]);
      c60 = a.fma(b0, c60);
      c61 = a.fma(b1, c61);
      a = FloatVector.broadcast(S, ap[ai + 7]);
      c70 = a.fma(b0, c70);
      c71 = a.fma(b1, c71);
    }
    c00.intoArray(tile, 0 * NR + 0 * L);
    c01.intoArray(tile, 0 * NR + 1 * L);
    c10.intoArray(tile, 1 * NR + 0 * L);
    c11.intoArray(tile, 1 * NR + 1 * L);
    c20.intoArray(tile, 2 * NR + 0 * L);
    c21.intoArray(tile, 2 * NR + 1 * L);
    c30.intoArray(tile, 3 * NR + 0 * L);
    c31.intoArray(tile, 3 * NR + 1 * L);
    c40.intoArray(tile, 4 * NR + 0 * L);
    c41.intoArray(tile, 4 * NR + 1 * L);
    c50.intoArray(tile, 5 * NR + 0 * L);
    c51.intoArray(tile, 5 * NR + 1 * L);
    c60.intoArray(tile, 6 * NR + 0 * L);
    c61.intoArray(tile, 6 * NR + 1 * L);
    c70.intoArray(tile, 7 * NR + 0 * L);
    c71.intoArray(tile, 7 * NR + 1 * L);
    if (scaled) {
      storeScaled(tile, c, cOff, ldc, rows, cols, alpha, beta);
    } else {
      storeTile(tile, c, cOff, ldc, rows, cols);
    }
  }

  /**
   * Writes combine(tile, alpha, beta, C) over the first rows x cols of C: alpha p when beta is 0
   * (C not read), else fma(p, alpha, beta c), lane by lane as {@link Gemm#combine} rounds it.
   */
  private static void storeScaled(float[] tile, float[] c, int cOff, int ldc, int rows, int cols,
      float alpha, float beta) {
    FloatVector av = FloatVector.broadcast(S, alpha);
    for (int r = 0; r < rows; r++) {
      int at = cOff + r * ldc;
      int t = r * NR;
      int j = 0;
      for (; j + L <= cols; j += L) {
        FloatVector p = FloatVector.fromArray(S, tile, t + j);
        FloatVector out = beta == 0f ? p.mul(av)
            : p.fma(av, FloatVector.fromArray(S, c, at + j).mul(beta));
        out.intoArray(c, at + j);
      }
      for (; j < cols; j++) {
        c[at + j] = Gemm.combine(tile[t + j], alpha, beta, c[at + j]);
      }
    }
  }

  /** Copies the first rows x cols of C into a tile of mr rows, zeros in the rest. */
  private static void loadTile(float[] tile, float[] c, int cOff, int ldc, int rows, int cols,
      int mr) {
    if (rows < mr || cols < NR) {
      java.util.Arrays.fill(tile, 0, mr * NR, 0f);
    }
    for (int r = 0; r < rows; r++) {
      System.arraycopy(c, cOff + r * ldc, tile, r * NR, cols);
    }
  }

  /** Writes the first rows x cols of the tile over C. */
  private static void storeTile(float[] tile, float[] c, int cOff, int ldc, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
      System.arraycopy(tile, r * NR, c, cOff + r * ldc, cols);
    }
  }
}
