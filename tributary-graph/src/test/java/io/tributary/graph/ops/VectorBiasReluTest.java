package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Vector API's fused bias and ReLU against the plain loop, bit for bit (a NaN as any NaN). */
class VectorBiasReluTest {
  /** Signed zeros, infinities, NaN, subnormals, extremes, and sums that round to them. */
  private static final float[] SPECIAL = {0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
      -Float.MAX_VALUE, 1e-38f, -1e-38f, 0.5f, -2.5f, 3e30f};

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 16, 32, 37, 64})
  void apply_specialValuesAnyWidth_givesThePlainLoopsBits(int width) {
    SplittableRandom rnd = new SplittableRandom(width);
    int rows = 9;
    float[] out = new float[rows * width];
    for (int i = 0; i < out.length; i++) {
      out[i] = rnd.nextInt(3) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)]
          : (float) rnd.nextGaussian();
    }
    float[] bias = new float[width];
    for (int j = 0; j < width; j++) {
      bias[j] = rnd.nextBoolean() ? SPECIAL[rnd.nextInt(SPECIAL.length)]
          : (float) rnd.nextGaussian();
    }
    float[] plain = out.clone();
    float[] vector = out.clone();
    // Rows 2 to 7 only: the rows outside [from, to) stay as they were.
    ConvFloat.biasRelu(plain, 2 * width, 7 * width, bias);
    VectorBiasRelu.apply(vector, 2 * width, 7 * width, bias);
    for (int i = 0; i < out.length; i++) {
      assertThat(Float.floatToIntBits(vector[i])).as("element %d", i)
          .isEqualTo(Float.floatToIntBits(plain[i]));
    }
    assertThat(vector[0]).isEqualTo(out[0]);
  }
}
