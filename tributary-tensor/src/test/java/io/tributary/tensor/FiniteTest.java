package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FiniteTest {
  @Test
  void firstNonFinite_float32PastSeveralChunks_givesTheFirstIndex() {
    for (int at : new int[] {0, 2047, 2048, 4100, 9999}) {
      float[] v = new float[10_000];
      Arrays.fill(v, 0.5f);
      v[at] = Float.NaN;
      if (at + 1 < v.length) {
        v[at + 1] = Float.POSITIVE_INFINITY;
      }
      assertThat(Finite.firstNonFinite(Tensor.ofFloats(Shape.of(100, 100), v))).isEqualTo(at);
    }
  }

  @Test
  void firstNonFinite_float64PastSeveralChunks_givesTheFirstIndex() {
    double[] v = new double[5_000];
    v[4_097] = Double.NEGATIVE_INFINITY;
    assertThat(Finite.firstNonFinite(Tensor.ofDoubles(Shape.of(5_000), v))).isEqualTo(4_097);
  }

  @Test
  void firstNonFinite_allFiniteOrEmpty_isMinusOne() {
    float[] v = new float[4_099];
    Arrays.fill(v, Float.MAX_VALUE);
    assertThat(Finite.firstNonFinite(Tensor.ofFloats(Shape.of(4_099), v))).isEqualTo(-1);
    assertThat(Finite.firstNonFinite(Tensor.ofFloats(Shape.of(0)))).isEqualTo(-1);
    assertThat(Finite.isFinite(Tensor.ofDoubles(Shape.of(3), 1, -2, 3))).isTrue();
  }

  @Test
  void problem_nanInSecondTensor_namesTensorElementAndKind() {
    float[] v = new float[3_000];
    v[2_500] = Float.NaN;
    assertThat(Finite.problem(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f),
        Tensor.ofFloats(Shape.of(3_000), v)), List.of("b", "w")))
        .contains("tensor 'w' (float32[3000]) holds NaN at element 2500");
  }

  @Test
  void firstNonFinite_edgeBitPatterns_agreesWithIsFinite() {
    float[] specials = {Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -0f, 0f,
        Float.MIN_NORMAL, Float.intBitsToFloat(0x7f7fffff), Float.intBitsToFloat(0xff800001),
        Float.intBitsToFloat(0x7fc00000), Float.NEGATIVE_INFINITY, Float.intBitsToFloat(0xffffffff)};
    for (float x : specials) {
      float[] v = new float[3_000];
      Arrays.fill(v, -Float.MAX_VALUE);
      v[2_100] = x;
      assertThat(Finite.firstNonFinite(Tensor.ofFloats(Shape.of(3_000), v)))
          .as("%08x", Float.floatToRawIntBits(x)).isEqualTo(Float.isFinite(x) ? -1 : 2_100);
    }
    double[] doubles = {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, -0.0,
        Double.longBitsToDouble(0xfff0000000000001L), Double.NEGATIVE_INFINITY,
        Double.longBitsToDouble(0x7fefffffffffffffL)};
    for (double x : doubles) {
      double[] v = new double[3_000];
      v[2_999] = x;
      assertThat(Finite.firstNonFinite(Tensor.ofDoubles(Shape.of(3_000), v)))
          .as("%016x", Double.doubleToRawLongBits(x)).isEqualTo(Double.isFinite(x) ? -1 : 2_999);
    }
  }
}
