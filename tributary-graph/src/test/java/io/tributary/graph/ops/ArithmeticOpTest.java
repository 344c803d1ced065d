package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ArithmeticOpTest {
  private static final float[] SPECIAL = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, 1e-30f};

  private static float[] values(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = i < SPECIAL.length * 3 && i % 3 == 0 ? SPECIAL[i / 3]
          : (float) (r.nextGaussian() * Math.pow(10, r.nextInt(-3, 4)));
    }
    return v;
  }

  // Bits compared with NaN as NaN: a NaN's payload and sign are the hardware's, not the op's.
  /** The float64 path's answer: each float widened, the operation in double, rounded once. */
  private static float wide(ArithmeticOp.Kind kind, float u, float v) {
    double a = u;
    double b = v;
    return (float) switch (kind) {
      case ADD -> a + b;
      case SUB -> a - b;
      case MUL -> a * b;
      case DIV -> a / b;
    };
  }

  @ParameterizedTest
  @EnumSource(ArithmeticOp.Kind.class)
  void apply_float32OfOneShape_sameBitsAsTheFloat64Path(ArithmeticOp.Kind kind) {
    float[] x = values(600, 1);
    float[] y = values(600, 2);

    NdArray r = ArithmeticOp.apply(kind, NdArray.wrapFloats(new int[] {60, 10}, x),
        NdArray.wrapFloats(new int[] {60, 10}, y));

    assertThat(r.shape()).containsExactly(60, 10);
    for (int i = 0; i < x.length; i++) {
      assertThat(Float.floatToIntBits(r.floats()[i]))
          .as("element %d", i).isEqualTo(Float.floatToIntBits(wide(kind, x[i], y[i])));
    }
  }

  @ParameterizedTest
  @EnumSource(ArithmeticOp.Kind.class)
  void apply_float32RowBroadcast_sameBitsAsTheFloat64Path(ArithmeticOp.Kind kind) {
    float[] x = values(600, 3);
    float[] y = values(10, 4);

    NdArray r = ArithmeticOp.apply(kind, NdArray.wrapFloats(new int[] {60, 10}, x),
        NdArray.wrapFloats(new int[] {10}, y));

    for (int i = 0; i < x.length; i++) {
      assertThat(Float.floatToIntBits(r.floats()[i]))
          .as("element %d", i).isEqualTo(Float.floatToIntBits(wide(kind, x[i], y[i % 10])));
    }
  }

  @Test
  void apply_reuseOfTheSameShape_writesIntoIt() {
    NdArray reuse = NdArray.zeros(DType.FLOAT32, 2, 3);
    NdArray a = NdArray.wrapFloats(new int[] {2, 3}, new float[] {1, 2, 3, 4, 5, 6});
    NdArray b = NdArray.wrapFloats(new int[] {2, 3}, new float[] {6, 5, 4, 3, 2, 1});

    NdArray r = ArithmeticOp.apply(ArithmeticOp.Kind.SUB, a, b, reuse);

    assertThat(r).isSameAs(reuse);
    assertThat(r.floats()).containsExactly(-5, -3, -1, 1, 3, 5);
  }
}
