package io.tributary.tensor;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * A short-rowed rank-one difference's weighted sum ({@link RankOneFactors#add}) on the Vector API,
 * a vector of elements at a time, with the bits of the scalar loop.
 *
 * <p>Elements {@code e .. e + LANES} of a [rows, cols] difference span at most {@code LANES} rows
 * from {@code r = e / cols}, so their {@code u} factors are one vector loaded at {@code u[r]} and
 * rearranged by a shuffle that depends only on the phase {@code e % cols}; their {@code v} factors
 * are one load from {@code v} written out cyclically ({@code vCycle[k] = v[k % cols]}) at the
 * phase. The shuffles are made once per difference; the phase and the row advance by arithmetic
 * (a table lookup there put a load's latency in the loop's dependency chain, and expanding the
 * {@code u} factors into a scratch array by broadcast stores first was slower still). Each lane
 * then runs the scalar operations: {@code fma(u, v, 0)}, {@code fma(p, alpha, s) - s}, widened to
 * double, {@code acc + w d} as a multiply and an add, so each element has the scalar loop's bits
 * (the lane arithmetic is IEEE's, like {@link Math#fma}). The floats are half the width of the
 * doubles they widen to, so one conversion makes one double vector. Loaded only when the {@code
 * jdk.incubator.vector} module is present.
 */
final class VectorRankOne {
  private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Float> F = D.vectorBitSize() >= 128
      ? FloatVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(D.vectorBitSize() / 2))
      : null;
  private static final int LANES = D.length();

  private final float[] u;
  private final float[] vCycle;
  private final int cols;
  private final VectorShuffle<Float>[] shuffles;

  @SuppressWarnings("unchecked")
  private VectorRankOne(float[] u, float[] v) {
    this.u = u;
    this.cols = v.length;
    this.vCycle = new float[cols + LANES];
    for (int k = 0; k < vCycle.length; k++) {
      vCycle[k] = v[k % cols];
    }
    this.shuffles = new VectorShuffle[cols];
    int[] lanes = new int[LANES];
    for (int p = 0; p < cols; p++) {
      for (int l = 0; l < LANES; l++) {
        lanes[l] = (p + l) / cols;
      }
      shuffles[p] = VectorShuffle.fromArray(F, lanes, 0);
    }
  }

  /**
   * The kernel for the factors {@code u} (rows) and {@code v} (columns), or null where this
   * machine's vectors are too short to gain anything (fewer than two doubles).
   */
  static VectorRankOne of(float[] u, float[] v) {
    return F == null || LANES < 2 || v.length == 0 ? null : new VectorRankOne(u, v);
  }

  /**
   * {@code acc[to + q] += w * d[at + q]} for {@code q < len}, d the difference of {@code start}'s
   * elements stepped by {@code alpha u v^T}, as far as whole vectors go whose {@code u} load
   * stays within {@code u}.
   *
   * @return how many elements were added, from {@code q = 0} (a multiple of the lane count); the
   *     rest are the scalar loops'
   */
  int add(float[] start, float alpha, int at, int len, double w, double[] acc, int to) {
    int r = at / cols;
    int p = at - r * cols;
    int lastRow = u.length - LANES;
    FloatVector zero = FloatVector.zero(F);
    FloatVector a = FloatVector.broadcast(F, alpha);
    DoubleVector wv = DoubleVector.broadcast(D, w);
    int phaseStep = LANES % cols;
    int rowStep = LANES / cols;
    int q = 0;
    for (; q + LANES <= len && r <= lastRow; q += LANES) {
      FloatVector uq = FloatVector.fromArray(F, u, r).rearrange(shuffles[p]);
      FloatVector product = uq.fma(FloatVector.fromArray(F, vCycle, p), zero);
      FloatVector s = FloatVector.fromArray(F, start, at + q);
      FloatVector d = product.fma(a, s).sub(s);
      DoubleVector wide = (DoubleVector) d.convertShape(VectorOperators.F2D, D, 0);
      DoubleVector sum = DoubleVector.fromArray(D, acc, to + q).add(wide.mul(wv));
      sum.intoArray(acc, to + q);
      r += rowStep;
      p += phaseStep;
      if (p >= cols) {
        p -= cols;
        r++;
      }
    }
    return q;
  }
}
