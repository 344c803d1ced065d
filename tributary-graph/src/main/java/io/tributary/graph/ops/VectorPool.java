package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Float32 max pooling and its gradient on the Vector API, a vector of channels at a time. The
 * comparisons are the scalar path's ({@code v > best}, window in (ky, kx) order, the first maximum
 * kept), done lane by lane and merged by blends instead of branches: the same outputs, bit for bit,
 * as {@link MaxPoolOp}'s loop, which on data no branch predictor can guess mispredicts about once
 * per compare. No arithmetic rounds, so the results cannot depend on the vector width.
 *
 * <p>Loaded only when the {@code jdk.incubator.vector} module is present (see {@link Gemm}).
 */
final class VectorPool {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, S.vectorShape());
  private static final int L = S.length();

  private VectorPool() {}

  /**
   * Channels {@code [0, full)} of every window of images {@code [from, to)}, where {@code full}
   * is c rounded down to whole vectors (returned; the caller does the rest): out holds the pool
   * ({@code g} null) or, with {@code g}, the gradient added onto each window's first maximum (out
   * zeroed by the caller); where the windows do not overlap, each window's inputs are written
   * whole instead (the same values: the gradient, plus zero, at the first maximum, zero
   * elsewhere).
   */
  static int pool(float[] x, float[] g, float[] out, int from, int to, int h, int w, int c, int oh,
      int ow, ConvGeometry geo) {
    int full = c - c % L;
    int[] at = new int[L];
    boolean disjoint = geo.sh() >= geo.kh() && geo.sw() >= geo.kw();
    FloatVector zero = FloatVector.zero(S);
    for (int b = from; b < to; b++) {
      for (int oy = 0; oy < oh; oy++) {
        for (int ox = 0; ox < ow; ox++) {
          int first = ((b * h + oy * geo.sh()) * w + ox * geo.sw()) * c;
          int o = ((b * oh + oy) * ow + ox) * c;
          for (int ch = 0; ch < full; ch += L) {
            FloatVector best = FloatVector.fromArray(S, x, first + ch);
            IntVector bestAt = IntVector.broadcast(I, first);
            for (int ky = 0; ky < geo.kh(); ky++) {
              for (int kx = 0; kx < geo.kw(); kx++) {
                if (ky == 0 && kx == 0) {
                  continue;
                }
                int p = ((b * h + oy * geo.sh() + ky) * w + ox * geo.sw() + kx) * c;
                FloatVector v = FloatVector.fromArray(S, x, p + ch);
                VectorMask<Float> more = v.compare(VectorOperators.GT, best);
                best = best.blend(v, more);
                if (g != null) {
                  bestAt = bestAt.blend(IntVector.broadcast(I, p), more.cast(I));
                }
              }
            }
            if (g == null) {
              best.intoArray(out, o + ch);
            } else if (disjoint) {
              // Each input is in one window at most: write the window whole, the gradient where
              // its first maximum is (0 + g, as the adding path rounds -0), zeros elsewhere.
              FloatVector gv = FloatVector.fromArray(S, g, o + ch).add(0f);
              for (int ky = 0; ky < geo.kh(); ky++) {
                for (int kx = 0; kx < geo.kw(); kx++) {
                  int p = ((b * h + oy * geo.sh() + ky) * w + ox * geo.sw() + kx) * c;
                  zero.blend(gv, bestAt.compare(VectorOperators.EQ, p).cast(S))
                      .intoArray(out, p + ch);
                }
              }
            } else {
              bestAt.intoArray(at, 0);
              for (int l = 0; l < L; l++) {
                out[at[l] + ch + l] += g[o + ch + l];
              }
            }
          }
        }
      }
    }
    return full;
  }
}
