package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Float32 products with 8 to 16 columns ({@code c = alpha op(a) b + beta c}) on the Vector API,
 * for the narrow layers of small models: a dense layer's logits (batch x 10 classes) and its weight
 * gradient. At these sizes a BLAS call costs more in packing and dispatch than in arithmetic
 * (docs/benchmarks.md, "Simulation").
 *
 * <p>Each row of C is two 8-lane vectors, at columns 0 and n - 8, which overlap when n < 16; the
 * overlapping lanes compute the same sums in the same order, so writing both is harmless, and
 * both are read before either is written. B is read in place (k rows of n floats stay in L1),
 * five rows of A are broadcast per step of k, and C is read only when beta is not 0. Five rows
 * keep ten independent accumulators in flight, enough to hide the FMA latency; with four rows and
 * the remainder one row at a time, a batch of 10 spent a third longer. The stores are written
 * out in each method rather than in a helper: a vector passed to a method C2 does not inline is
 * boxed, which costs more than the kernel saves. Loaded only when the {@code
 * jdk.incubator.vector} module is present (see {@link Gemm}).
 */
final class NarrowGemm {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_256;
  static final int LANES = 8;

  private NarrowGemm() {}

  /** Whether this kernel takes a product with n columns and this B layout. */
  static boolean fits(boolean tb, int n) {
    return !tb && n >= LANES && n <= 2 * LANES;
  }

  /** Whether 8-lane vectors run natively here (the preferred species is at least that wide). */
  static boolean native8() {
    return FloatVector.SPECIES_PREFERRED.length() >= LANES;
  }

  /**
   * {@code c = alpha op(a) b + beta c} for {@link #fits} shapes; with {@code ta}, {@code a} holds
   * [k, m]. Sizes are checked by the caller.
   */
  static void multiply(boolean ta, int m, int n, int k, float alpha, float[] a, float[] b,
      float beta, float[] c) {
    // a(i, p) = a[i * rowStride + p * colStride]
    int rowStride = ta ? 1 : k;
    int colStride = ta ? m : 1;
    int i = 0;
    for (; i + 5 <= m; i += 5) {
      fiveRows(i, n, k, alpha, a, i * rowStride, rowStride, colStride, b, beta, c);
    }
    for (; i < m; i++) {
      oneRow(i, n, k, alpha, a, i * rowStride, colStride, b, beta, c);
    }
  }

  private static void fiveRows(int i, int n, int k, float alpha, float[] a, int a0, int rs,
      int cs, float[] b, float beta, float[] c) {
    int o1 = n - LANES;
    FloatVector c00 = FloatVector.zero(S);
    FloatVector c01 = c00;
    FloatVector c10 = c00;
    FloatVector c11 = c00;
    FloatVector c20 = c00;
    FloatVector c21 = c00;
    FloatVector c30 = c00;
    FloatVector c31 = c00;
    FloatVector c40 = c00;
    FloatVector c41 = c00;
    for (int p = 0; p < k; p++) {
      FloatVector b0 = FloatVector.fromArray(S, b, p * n);
      FloatVector b1 = FloatVector.fromArray(S, b, p * n + o1);
      int at = a0 + p * cs;
      FloatVector x = FloatVector.broadcast(S, a[at]);
      c00 = b0.fma(x, c00);
      c01 = b1.fma(x, c01);
      x = FloatVector.broadcast(S, a[at + rs]);
      c10 = b0.fma(x, c10);
      c11 = b1.fma(x, c11);
      x = FloatVector.broadcast(S, a[at + 2 * rs]);
      c20 = b0.fma(x, c20);
      c21 = b1.fma(x, c21);
      x = FloatVector.broadcast(S, a[at + 3 * rs]);
      c30 = b0.fma(x, c30);
      c31 = b1.fma(x, c31);
      x = FloatVector.broadcast(S, a[at + 4 * rs]);
      c40 = b0.fma(x, c40);
      c41 = b1.fma(x, c41);
    }
    FloatVector al = FloatVector.broadcast(S, alpha);
    int r0 = i * n;
    int r1 = r0 + n;
    int r2 = r1 + n;
    int r3 = r2 + n;
    int r4 = r3 + n;
    if (beta == 0f) {
      c01.mul(al).intoArray(c, r0 + o1);
      c00.mul(al).intoArray(c, r0);
      c11.mul(al).intoArray(c, r1 + o1);
      c10.mul(al).intoArray(c, r1);
      c21.mul(al).intoArray(c, r2 + o1);
      c20.mul(al).intoArray(c, r2);
      c31.mul(al).intoArray(c, r3 + o1);
      c30.mul(al).intoArray(c, r3);
      c41.mul(al).intoArray(c, r4 + o1);
      c40.mul(al).intoArray(c, r4);
      return;
    }
    FloatVector be = FloatVector.broadcast(S, beta);
    FloatVector t0 = c00.fma(al, FloatVector.fromArray(S, c, r0).mul(be));
    FloatVector t1 = c01.fma(al, FloatVector.fromArray(S, c, r0 + o1).mul(be));
    t1.intoArray(c, r0 + o1);
    t0.intoArray(c, r0);
    t0 = c10.fma(al, FloatVector.fromArray(S, c, r1).mul(be));
    t1 = c11.fma(al, FloatVector.fromArray(S, c, r1 + o1).mul(be));
    t1.intoArray(c, r1 + o1);
    t0.intoArray(c, r1);
    t0 = c20.fma(al, FloatVector.fromArray(S, c, r2).mul(be));
    t1 = c21.fma(al, FloatVector.fromArray(S, c, r2 + o1).mul(be));
    t1.intoArray(c, r2 + o1);
    t0.intoArray(c, r2);
    t0 = c30.fma(al, FloatVector.fromArray(S, c, r3).mul(be));
    t1 = c31.fma(al, FloatVector.fromArray(S, c, r3 + o1).mul(be));
    t1.intoArray(c, r3 + o1);
    t0.intoArray(c, r3);
    t0 = c40.fma(al, FloatVector.fromArray(S, c, r4).mul(be));
    t1 = c41.fma(al, FloatVector.fromArray(S, c, r4 + o1).mul(be));
    t1.intoArray(c, r4 + o1);
    t0.intoArray(c, r4);
  }

  private static void oneRow(int i, int n, int k, float alpha, float[] a, int a0, int cs,
      float[] b, float beta, float[] c) {
    int o1 = n - LANES;
    FloatVector c0 = FloatVector.zero(S);
    FloatVector c1 = c0;
    for (int p = 0; p < k; p++) {
      FloatVector x = FloatVector.broadcast(S, a[a0 + p * cs]);
      c0 = FloatVector.fromArray(S, b, p * n).fma(x, c0);
      c1 = FloatVector.fromArray(S, b, p * n + o1).fma(x, c1);
    }
    int r = i * n;
    FloatVector al = FloatVector.broadcast(S, alpha);
    if (beta == 0f) {
      c1.mul(al).intoArray(c, r + o1);
      c0.mul(al).intoArray(c, r);
      return;
    }
    FloatVector be = FloatVector.broadcast(S, beta);
    FloatVector t0 = c0.fma(al, FloatVector.fromArray(S, c, r).mul(be));
    FloatVector t1 = c1.fma(al, FloatVector.fromArray(S, c, r + o1).mul(be));
    t1.intoArray(c, r + o1);
    t0.intoArray(c, r);
  }

  /**
   * Runs the kernel on throwaway data, both layouts, so that C2 has compiled it before real work
   * reaches it: until then the Vector API runs as plain Java objects, tens of times slower.
   */
  static void warmUp(int iterations) {
    float[] a = new float[60 * 10];
    float[] b = new float[60 * 10];
    float[] c = new float[60 * 10];
    for (int it = 0; it < iterations; it++) {
      multiply(false, 10, 10, 60, 1f, a, b, 0f, c);
      multiply(true, 60, 10, 10, -0.01f, a, b, 1f, c);
    }
  }
}
