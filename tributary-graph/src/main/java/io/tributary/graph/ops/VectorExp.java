package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FloatExp}'s exponential on the Vector API, lane by lane the same operations in the same
 * order, so the same bits. Loaded only when the {@code jdk.incubator.vector} module is present.
 */
final class VectorExp {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

  private VectorExp() {}

  /**
   * Replaces the whole vectors of {@code a[from .. to)} with their exponentials and returns where
   * the rest, fewer than one vector, begins.
   */
  static int expInPlace(float[] a, int from, int to) {
    int i = from;
    for (; i + S.length() <= to; i += S.length()) {
      FloatVector x = FloatVector.fromArray(S, a, i);
      FloatVector c = x.max(FloatExp.UNDERFLOW).min(FloatExp.OVERFLOW);
      FloatVector n = c.mul(FloatExp.LOG2E).add(FloatExp.ROUND).sub(FloatExp.ROUND);
      FloatVector g = n.fma(FloatVector.broadcast(S, -FloatExp.LN2_HI), c);
      g = n.fma(FloatVector.broadcast(S, -FloatExp.LN2_LO), g);
      FloatVector p = g.fma(FloatExp.P0, FloatExp.P1);
      p = p.fma(g, FloatVector.broadcast(S, FloatExp.P2));
      p = p.fma(g, FloatVector.broadcast(S, FloatExp.P3));
      p = p.fma(g, FloatVector.broadcast(S, FloatExp.P4));
      p = p.fma(g, FloatVector.broadcast(S, FloatExp.P5));
      FloatVector y = p.fma(g.mul(g), g).add(1f);
      FloatVector k = n.min(127f);
      y = y.mul(n.sub(k).add(1f));
      IntVector bits = ((IntVector) k.convert(VectorOperators.F2I, 0)).add(127).lanewise(
          VectorOperators.LSHL, 23);
      FloatVector r = y.mul(bits.reinterpretAsFloats());
      VectorMask<Float> under = x.lt(FloatExp.UNDERFLOW);
      r.blend(0f, under).intoArray(a, i);
    }
    return i;
  }
}
