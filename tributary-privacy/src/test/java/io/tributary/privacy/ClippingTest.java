package io.tributary.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Clipping, noise and adaptive clipping. */
class ClippingTest {
  private static final List<Tensor> UPDATE = List.of(Tensor.ofFloats(Shape.of(2), 3, 0),
      Tensor.ofDoubles(Shape.of(1), 4));

  @Test
  void clip_normAboveC_scalesAllLayersTogetherToC() {
    Clipping.Clipped c = Clipping.clip(UPDATE, 1);

    assertThat(c.norm()).isEqualTo(5);
    assertThat(c.clipped()).isTrue();
    assertThat(Clipping.l2Norm(c.update())).isCloseTo(1, within(1e-6));
    assertThat(c.update().get(0).getAsDouble(0)).isCloseTo(0.6, within(1e-6));
    assertThat(c.update().get(1).getAsDouble(0)).isCloseTo(0.8, within(1e-12));
    assertThat(c.update().get(0).dtype()).isEqualTo(UPDATE.get(0).dtype());
  }

  @Test
  void clip_normAtMostC_passesUnchanged() {
    Clipping.Clipped c = Clipping.clip(UPDATE, 5);
    assertThat(c.clipped()).isFalse();
    assertThat(c.update()).isEqualTo(UPDATE);
  }

  @Test
  void clip_nonFiniteUpdateOrBadNorm_isRefused() {
    List<Tensor> nan = List.of(Tensor.ofFloats(Shape.of(1), Float.NaN));
    assertThatThrownBy(() -> Clipping.clip(nan, 1)).hasMessageContaining("non-finite");
    assertThatThrownBy(() -> Clipping.clip(UPDATE, 0)).hasMessageContaining("clipping_norm");
  }

  @Test
  void addGaussianNoise_seeded_hasTheStddevAndRepeats() {
    List<Tensor> zeros = List.of(Tensor.zeros(io.tributary.tensor.DType.FLOAT64,
        Shape.of(200_000)));
    Tensor a = Clipping.addGaussianNoise(zeros, 0.5,
        NoiseSource.seededForExperimentsOnlyNotPrivate(7)).get(0);
    Tensor b = Clipping.addGaussianNoise(zeros, 0.5,
        NoiseSource.seededForExperimentsOnlyNotPrivate(7)).get(0);
    double sum = 0;
    double sq = 0;
    for (long i = 0; i < a.size(); i++) {
      sum += a.getAsDouble(i);
      sq += a.getAsDouble(i) * a.getAsDouble(i);
    }
    double mean = sum / a.size();
    assertThat(mean).isCloseTo(0, within(0.005));
    assertThat(Math.sqrt(sq / a.size() - mean * mean)).isCloseTo(0.5, within(0.005));
    assertThat(b).isEqualTo(a);
  }

  @Test
  void secure_twoSources_giveDifferentNoise() {
    NoiseSource x = NoiseSource.secure();
    NoiseSource y = NoiseSource.secure();
    double[] a = {x.nextGaussian(), x.nextGaussian(), x.nextGaussian()};
    double[] b = {y.nextGaussian(), y.nextGaussian(), y.nextGaussian()};
    assertThat(Arrays.equals(a, b)).isFalse();
  }

  @Test
  void adaptiveClipping_manyRounds_clippingNormTracksTheTargetQuantile() {
    // Update norms are uniform on [0, 10]: the 0.3 quantile is 3.
    AdaptiveClipping rule = new AdaptiveClipping(0.3, 0.2, 0.5);
    NoiseSource noise = NoiseSource.seededForExperimentsOnlyNotPrivate(1);
    SplittableRandom norms = new SplittableRandom(2);
    double c = 0.1;
    double late = 0;
    for (int round = 0; round < 3000; round++) {
      int unclipped = 0;
      for (int k = 0; k < 100; k++) {
        if (norms.nextDouble() * 10 <= c) {
          unclipped++;
        }
      }
      c = rule.next(c, unclipped, 100, noise);
      if (round >= 2000) {
        late += c / 1000;
      }
    }
    assertThat(late).isCloseTo(3, within(0.15));
  }

  @Test
  void updateNoiseMultiplier_matchesFlowersFormula_andRefusesTooLittleCountNoise() {
    AdaptiveClipping rule = AdaptiveClipping.defaults(100); // clipped_count_stddev 5
    // (1.1^-2 - 10^-2)^-1/2
    assertThat(rule.updateNoiseMultiplier(1.1))
        .isCloseTo(Math.pow(1 / 1.21 - 0.01, -0.5), within(1e-12));
    assertThat(rule.updateNoiseMultiplier(0)).isZero();
    assertThatThrownBy(() -> AdaptiveClipping.defaults(20).updateNoiseMultiplier(2))
        .hasMessageContaining("clipped_count_stddev");
  }

  @Test
  void dpFormulas_flowersNoiseScales() {
    assertThat(DpFormulas.centralStddev(1.2, 0.5, 10)).isCloseTo(0.06, within(1e-15));
    assertThat(DpFormulas.localStddev(1, 0.5, 1e-5))
        .isCloseTo(Math.sqrt(2 * Math.log(1.25e5)) / 0.5, within(1e-12));
    assertThatThrownBy(() -> DpFormulas.centralStddev(1, 1, 0))
        .hasMessageContaining("num_sampled_clients");
  }
}
