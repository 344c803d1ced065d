package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FloatExpTest {
  /** Error in units of the float nearest the exact value, which Math.exp in double stands for. */
  private static double ulps(float got, double exact) {
    float nearest = (float) exact;
    return Math.abs(got - exact) / Math.ulp(nearest);
  }

  @Test
  void exp_floatsAcrossTheNormalRange_within2Ulp() {
    double worst = 0;
    float worstAt = 0;
    int from = Float.floatToRawIntBits(FloatExp.UNDERFLOW);
    // Negative floats: bit patterns from -0 up to UNDERFLOW; every 61st one (about 35M).
    for (int bits = 0x80000000; bits <= from && bits < 0; bits += 61) {
      float x = Float.intBitsToFloat(bits);
      double e = ulps(FloatExp.exp(x), Math.exp(x));
      if (e > worst) {
        worst = e;
        worstAt = x;
      }
    }
    for (int bits = 0; bits <= Float.floatToRawIntBits(FloatExp.OVERFLOW); bits += 61) {
      float x = Float.intBitsToFloat(bits);
      double e = ulps(FloatExp.exp(x), Math.exp(x));
      if (e > worst) {
        worst = e;
        worstAt = x;
      }
    }
    assertThat(worst).as("worst error, at x = %s", worstAt).isLessThanOrEqualTo(2.0);
  }

  @ParameterizedTest
  @CsvSource({
      "NaN, NaN",
      "-Infinity, 0",
      "Infinity, Infinity",
      "0, 1",
      "-0, 1",
      "1.4E-45, 1",
      "-88, 0",
      "89, Infinity",
      "-1000, 0"
  })
  void exp_specialValues_matchTheLimits(float x, float expected) {
    // Boxed, so NaN equals NaN.
    assertThat(Float.valueOf(FloatExp.exp(x))).isEqualTo(Float.valueOf(expected));
    float[] a = new float[17];
    java.util.Arrays.fill(a, x);
    FloatExp.expInPlace(a, 0, a.length);
    for (float v : a) {
      assertThat(Float.valueOf(v)).isEqualTo(Float.valueOf(expected));
    }
  }

  @Test
  void exp_justBelowOverflow_isFiniteAndClose() {
    float x = 88.72f;
    float r = FloatExp.exp(x);
    assertThat(r).isFinite();
    assertThat(ulps(r, Math.exp(x))).isLessThanOrEqualTo(2.0);
  }

  @Test
  void expInPlace_vectorAndScalar_sameBits() {
    assertThat(Gemm.isAvailable(Gemm.Kernel.VECTOR))
        .as("tests run with --add-modules jdk.incubator.vector, so the vector path is covered")
        .isTrue();
    SplittableRandom r = new SplittableRandom(7);
    float[] a = new float[100_003];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) (r.nextDouble() * 200 - 100);
    }
    float[] expected = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      expected[i] = FloatExp.exp(a[i]);
    }
    float[] got = a.clone();
    FloatExp.expInPlace(got, 3, got.length);
    for (int i = 3; i < a.length; i++) {
      assertThat(Float.floatToRawIntBits(got[i])).as("x = %s", a[i])
          .isEqualTo(Float.floatToRawIntBits(expected[i]));
    }
    assertThat(got[0]).isEqualTo(a[0]);
  }

  @Test
  void expInPlace_rangeOutsideTheArray_throws() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> FloatExp.expInPlace(new float[4], 2, 5))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
