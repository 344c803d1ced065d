package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExponentialsTest {
  /** Distance in units in the last place between two positive doubles. */
  private static long ulps(double a, double b) {
    return Math.abs(Double.doubleToRawLongBits(a) - Double.doubleToRawLongBits(b));
  }

  @Test
  void of_acrossTheRange_withinThreeUlpOfStrictMathExp() {
    SplittableRandom rnd = new SplittableRandom(7);
    long worst = 0;
    for (int i = 0; i < 500_000; i++) {
      // Half spread over the whole range, half over the few units a softmax mostly sees.
      double x = i % 2 == 0 ? Exponentials.LOWEST * rnd.nextDouble() : -20.0 * rnd.nextDouble();
      worst = Math.max(worst, ulps(Exponentials.of(x), StrictMath.exp(x)));
    }
    assertThat(worst).isLessThanOrEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-1e-300, -1e-17, -0.005415, -0.0054152123481245725, -0.34657359027997264,
      -0.5, -1, -2.5, -10, -87.33654, -100, -707.9, -708})
  void of_edges_withinThreeUlpOfStrictMathExp(double x) {
    assertThat(ulps(Exponentials.of(x), StrictMath.exp(x))).isLessThanOrEqualTo(3);
  }

  @Test
  void of_zero_isExactlyOne() {
    assertThat(Exponentials.of(0.0)).isEqualTo(1.0);
    assertThat(Exponentials.of(-0.0)).isEqualTo(1.0);
  }

  @Test
  void of_belowLowest_givesTheLowestsTinyPositiveValue() {
    double floor = Exponentials.of(Exponentials.LOWEST);
    assertThat(floor).isPositive().isLessThan(1e-307);
    assertThat(Exponentials.of(-1000)).isEqualTo(floor);
    assertThat(Exponentials.of(Double.NEGATIVE_INFINITY)).isEqualTo(floor);
  }

  @Test
  void of_nan_isNan() {
    assertThat(Exponentials.of(Double.NaN)).isNaN();
  }
}
