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
}
