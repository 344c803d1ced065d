package io.tributary.tensor;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.LongVector;
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
   * Whether {@code acc[at, at + len)} holds no -0 and no NaN ({@link TensorMath#plainSums}), a
   * vector of bits at a time: -0 is the one value whose bits equal the sign bit, and NaNs are
   * the values whose bits without the sign exceed infinity's.
   */
  static boolean plainSums(double[] acc, int at, int len) {
    int end = at + len;
    int i = at;
    for (int bound = at + D.loopBound(len); i < bound; i += LANES) {
      LongVector bits = DoubleVector.fromArray(D, acc, i).reinterpretAsLongs();
      if (bits.compare(VectorOperators.EQ, Long.MIN_VALUE)
          .or(bits.and(Long.MAX_VALUE).compare(VectorOperators.GT, INFINITY_BITS)).anyTrue()) {
        return false;
      }
    }
    for (; i < end; i++) {
      long b = Double.doubleToRawLongBits(acc[i]);
      if (b == Long.MIN_VALUE || (b & Long.MAX_VALUE) > INFINITY_BITS) {
        return false;
      }
    }
    return true;
  }

  private static final long INFINITY_BITS = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);

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

  /**
   * {@code acc[to + q] += w[c] * d_c[at + q]} for each difference {@code c} of a run, in order,
   * each {@link #add}'s bits, in one sweep: the run's differences share {@code start} and their
   * width, so a vector of elements loads its start and its sums once and adds every difference's
   * change in turn while the sums stay in a register (the tiled sum read and wrote them once per
   * difference). Two vectors of elements at a time, so that two chains of additions overlap: one
   * chain waits an addition's latency per difference.
   *
   * @param kernels the run's kernels, {@link #of} for factors of one width and row count
   * @return how many elements were added for every difference, from {@code q = 0} (a multiple of
   *     the lane count); the rest are the scalar loops'
   */
  static int addRun(VectorRankOne[] kernels, float[] start, float[] alpha, int at, int len,
      double[] w, double[] acc, int to) {
    VectorRankOne first = kernels[0];
    int cols = first.cols;
    VectorShuffle<Float>[] shuffles = first.shuffles;
    int r = at / cols;
    int p = at - r * cols;
    int lastRow = first.u.length - LANES;
    FloatVector zero = FloatVector.zero(F);
    int phaseStep = LANES % cols;
    int rowStep = LANES / cols;
    int q = 0;
    while (q + 2 * LANES <= len) {
      int r2 = r + rowStep;
      int p2 = p + phaseStep;
      if (p2 >= cols) {
        p2 -= cols;
        r2++;
      }
      if (r2 > lastRow) {
        break;
      }
      FloatVector s = FloatVector.fromArray(F, start, at + q);
      FloatVector s2 = FloatVector.fromArray(F, start, at + q + LANES);
      DoubleVector sum = DoubleVector.fromArray(D, acc, to + q);
      DoubleVector sum2 = DoubleVector.fromArray(D, acc, to + q + LANES);
      VectorShuffle<Float> shuffle = shuffles[p];
      VectorShuffle<Float> shuffle2 = shuffles[p2];
      for (int c = 0; c < kernels.length; c++) {
        VectorRankOne k = kernels[c];
        FloatVector a = FloatVector.broadcast(F, alpha[c]);
        DoubleVector wv = DoubleVector.broadcast(D, w[c]);
        FloatVector d = FloatVector.fromArray(F, k.u, r).rearrange(shuffle)
            .fma(FloatVector.fromArray(F, k.vCycle, p), zero).fma(a, s).sub(s);
        FloatVector d2 = FloatVector.fromArray(F, k.u, r2).rearrange(shuffle2)
            .fma(FloatVector.fromArray(F, k.vCycle, p2), zero).fma(a, s2).sub(s2);
        sum = sum.add(((DoubleVector) d.convertShape(VectorOperators.F2D, D, 0)).mul(wv));
        sum2 = sum2.add(((DoubleVector) d2.convertShape(VectorOperators.F2D, D, 0)).mul(wv));
      }
      sum.intoArray(acc, to + q);
      sum2.intoArray(acc, to + q + LANES);
      q += 2 * LANES;
      r = r2 + rowStep;
      p = p2 + phaseStep;
      if (p >= cols) {
        p -= cols;
        r++;
      }
    }
    if (q + LANES <= len && r <= lastRow) {
      FloatVector s = FloatVector.fromArray(F, start, at + q);
      DoubleVector sum = DoubleVector.fromArray(D, acc, to + q);
      VectorShuffle<Float> shuffle = shuffles[p];
      for (int c = 0; c < kernels.length; c++) {
        VectorRankOne k = kernels[c];
        FloatVector d = FloatVector.fromArray(F, k.u, r).rearrange(shuffle)
            .fma(FloatVector.fromArray(F, k.vCycle, p), zero)
            .fma(FloatVector.broadcast(F, alpha[c]), s).sub(s);
        sum = sum.add(((DoubleVector) d.convertShape(VectorOperators.F2D, D, 0)).mul(w[c]));
      }
      sum.intoArray(acc, to + q);
      q += LANES;
    }
    return q;
  }

  /** Whether {@link #addRun} may take this kernel after {@code first}: same width and rows. */
  boolean runsWith(VectorRankOne first) {
    return cols == first.cols && u.length == first.u.length;
  }
}
