package io.tributary.graph.ops;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A convolution's fused bias and ReLU on the Vector API: {@code max(y + bias, 0)} a vector of
 * channels at a time, lane by lane as {@link ConvFloat#biasRelu} rounds it (one float addition,
 * then {@link Math#max(float, float)}'s comparison, NaN and signed zeros included): the same bits.
 * C2 does not vectorize that loop's {@code Math.max} (8 times slower on a CNN's first layer, where
 * it cost more than the layer's product).
 *
 * <p>Loaded only when the {@code jdk.incubator.vector} module is present (see {@link Gemm}).
 */
final class VectorBiasRelu {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();

  private VectorBiasRelu() {}

  /** {@code out[i] = max(out[i] + bias[i mod width], 0)} for {@code i} in [from, to). */
  static void apply(float[] out, int from, int to, float[] bias) {
    int width = bias.length;
    int full = width - width % L;
    for (int row = from; row < to; row += width) {
      for (int j = 0; j < full; j += L) {
        FloatVector.fromArray(S, out, row + j).add(FloatVector.fromArray(S, bias, j)).max(0f)
            .intoArray(out, row + j);
      }
      for (int j = full; j < width; j++) {
        out[row + j] = Math.max(out[row + j] + bias[j], 0f);
      }
    }
  }
}
