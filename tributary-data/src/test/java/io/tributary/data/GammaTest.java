package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GammaTest {

  @ParameterizedTest
  @CsvSource({"0.1", "0.5", "1", "2.5", "10"})
  void logGamma_shape_meanAndVarianceMatchShape(double shape) {
    SplittableRandom r = new SplittableRandom(17);
    int n = 40_000;
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      double g = Math.exp(Gamma.logGamma(shape, r));
      sum += g;
      sumSq += g * g;
    }
    double mean = sum / n;
    double var = sumSq / n - mean * mean;
    // Gamma(k, 1) has mean k and variance k.
    assertThat(mean).isCloseTo(shape, within(0.05 * shape + 0.01));
    assertThat(var).isCloseTo(shape, within(0.1 * shape + 0.01));
  }

  @Test
  void symmetricDirichlet_tinyAlpha_finiteAndSumsToOne() {
    SplittableRandom r = new SplittableRandom(3);
    for (double alpha : new double[] {1e-4, 0.01, 1, 50}) {
      double[] p = Gamma.symmetricDirichlet(alpha, 30, r);
      double s = 0;
      for (double v : p) {
        assertThat(v).isBetween(0.0, 1.0);
        s += v;
      }
      assertThat(s).isCloseTo(1.0, within(1e-12));
    }
  }
}
