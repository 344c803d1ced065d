package io.tributary.graph.ops;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CrossEntropyMeanOp}'s rows on the Vector API, a vector of rows at a time: each lane is
 * one row and runs that row's scalar arithmetic in its order (the row's maximum, its exponentials
 * as {@link Exponentials#of} computes them, their sum over the columns in order, the gradient's
 * divisions), so every element has the scalar loop's bits; only the logarithm of each row's sum
 * stays scalar ({@code Math.log}). A small model's step spent about a quarter of its time in the
 * scalar rows, a few dozen cycles an element, bound by the exponential's arithmetic.
 *
 * <p>Loaded only when the {@code jdk.incubator.vector} module is present.
 */
final class VectorCrossEntropy {
  private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
  /** Rows per block: the doubles of one vector. */
  static final int LANES = D.length();
  private static final VectorSpecies<Float> F =
      VectorSpecies.of(float.class, VectorShape.forBitSize(LANES * Float.SIZE));
  private static final VectorSpecies<Long> L = LongVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Integer> I =
      VectorSpecies.of(int.class, VectorShape.forBitSize(LANES * Integer.SIZE));

  /** One thread's index maps and scratch, grown to the widest rows seen. */
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private static final class Scratch {
    final int[] tableAt = new int[LANES];
    final float[] max = new float[LANES];
    final double[] sum = new double[LANES];
    double[] exps = new double[0];
    float[] logits = new float[0];
  }

  private VectorCrossEntropy() {}

  /** Whether {@link #block} runs here: the long lanes match the double ones. */
  static boolean available() {
    return L.length() == LANES;
  }

  /**
   * Rows {@code [i0, i0 + LANES)} of {@link CrossEntropyMeanOp}'s pass over logits of {@code c}
   * columns: their gradient rows into {@code r}, scaled by {@code g}; returns {@code total} plus
   * their losses, each rounded to float, added in row order.
   */
  static double block(float[] z, long[] labels, int i0, int c, double g, float[] r,
      double total) {
    Scratch s = SCRATCH.get();
    if (s.exps.length < c * LANES) {
      s.exps = new double[c * LANES];
      s.logits = new float[c * LANES];
    }
    int base = i0 * c;
    // The block's logits column by column (zt[j * LANES + l] is row l's column j), so that each
    // column is one contiguous load; the gradient comes back the same way. Plain copies measured
    // faster than gathering and scattering each column.
    float[] zt = s.logits;
    for (int l = 0; l < LANES; l++) {
      int row = base + l * c;
      for (int j = 0; j < c; j++) {
        zt[j * LANES + l] = z[row + j];
      }
    }
    // CrossEntropyOp.rowMax: v > max ? v : max from -infinity, so a NaN is passed over.
    FloatVector max = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
    for (int j = 0; j < c; j++) {
      FloatVector v = FloatVector.fromArray(F, zt, j * LANES);
      max = max.blend(v, v.compare(VectorOperators.GT, max));
    }
    DoubleVector maxD = (DoubleVector) max.convertShape(VectorOperators.F2D, D, 0);
    double[] e = s.exps;
    DoubleVector sum = DoubleVector.zero(D);
    for (int j = 0; j < c; j++) {
      DoubleVector x = ((DoubleVector) FloatVector.fromArray(F, zt, j * LANES)
          .convertShape(VectorOperators.F2D, D, 0)).sub(maxD);
      DoubleVector ex = exp(x, s.tableAt);
      ex.intoArray(e, j * LANES);
      sum = sum.add(ex);
    }
    max.intoArray(s.max, 0);
    sum.intoArray(s.sum, 0);
    for (int l = 0; l < LANES; l++) {
      int label = (int) labels[i0 + l];
      float rowLoss = (float) -((double) z[base + l * c + label] - s.max[l]
          - Math.log(s.sum[l]));
      total += rowLoss;
    }
    LongVector label = LongVector.fromArray(L, labels, i0);
    DoubleVector one = DoubleVector.broadcast(D, 1.0);
    DoubleVector zero = DoubleVector.zero(D);
    DoubleVector scale = DoubleVector.broadcast(D, g);
    for (int j = 0; j < c; j++) {
      VectorMask<Double> hit = label.compare(VectorOperators.EQ, j).cast(D);
      DoubleVector v = DoubleVector.fromArray(D, e, j * LANES).div(sum)
          .sub(zero.blend(one, hit));
      ((FloatVector) v.mul(scale).convertShape(VectorOperators.D2F, F, 0))
          .intoArray(zt, j * LANES);
    }
    for (int l = 0; l < LANES; l++) {
      int row = base + l * c;
      for (int j = 0; j < c; j++) {
        r[row + j] = zt[j * LANES + l];
      }
    }
    return total;
  }

  /** {@link Exponentials#of} lane by lane, the same operations in the same order. */
  private static DoubleVector exp(DoubleVector x, int[] tableAt) {
    DoubleVector v = x.blend(Exponentials.LOWEST, x.compare(VectorOperators.LT,
        Exponentials.LOWEST));
    DoubleVector t = v.mul(Exponentials.SCALE).add(Exponentials.SHIFTER);
    DoubleVector k = t.sub(Exponentials.SHIFTER);
    DoubleVector r = v.sub(k.mul(Exponentials.HI)).sub(k.mul(Exponentials.LO));
    LongVector bits = t.reinterpretAsLongs();
    ((IntVector) bits.and(Exponentials.TABLE_SIZE - 1).convertShape(VectorOperators.L2I, I, 0))
        .intoArray(tableAt, 0);
    DoubleVector table = DoubleVector.fromArray(D, Exponentials.TABLE, 0, tableAt, 0);
    DoubleVector power = bits.lanewise(VectorOperators.ASHR, Exponentials.TABLE_BITS).add(1023)
        .lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
    DoubleVector scale = table.mul(power);
    DoubleVector r2 = r.mul(r);
    DoubleVector p = r.add(1.0).add(r2.mul(r.mul(1.0 / 6).add(0.5)
        .add(r2.mul(r.mul(1.0 / 120).add(1.0 / 24)))));
    return scale.mul(p);
  }
}
