package io.tributary.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Calibrating the noise multiplier to a target epsilon with the accountant. */
class NoiseCalibrationTest {
  private static double spent(double q, long steps, double z) {
    RdpAccountant a = new RdpAccountant();
    a.compose(Sampling.FIXED_SIZE, q, z, steps);
    return a.epsilon(1e-5).epsilon();
  }

  @ParameterizedTest
  @CsvSource({"0.1, 100, 1.0", "0.5, 30, 3.0", "1.0, 10, 8.0", "0.01, 1000, 0.5"})
  void noiseMultiplierFor_target_smallestMultiplierWithinIt(double q, long steps, double target) {
    double z = RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, q, steps, 1e-5, target);

    assertThat(spent(q, steps, z)).isLessThanOrEqualTo(target);
    assertThat(spent(q, steps, z * (1 - 1e-6))).isGreaterThan(target);
  }

  @Test
  void noiseMultiplierFor_moreRoundsOrLargerCohort_noLessNoise() {
    double base = RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.1, 100, 1e-5, 2);
    assertThat(RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.1, 400, 1e-5, 2))
        .isGreaterThan(base);
    assertThat(RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.4, 100, 1e-5, 2))
        .isGreaterThanOrEqualTo(base);
  }

  @Test
  void noiseMultiplierFor_badTargets_namedErrors() {
    assertThatThrownBy(() -> RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.1, 10,
        1e-5, 0)).hasMessage("the target epsilon must be positive and finite, got 0.0");
    assertThatThrownBy(() -> RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.1, 10,
        1e-5, Double.NaN)).hasMessageContaining("positive and finite, got NaN");
    assertThatThrownBy(() -> RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0, 10, 1e-5,
        1)).hasMessage("the sampling rate must be in (0, 1], got 0.0");
    assertThatThrownBy(() -> RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 0.1, 0, 1e-5,
        1)).hasMessage("the steps must be at least 1, got 0");
    assertThatThrownBy(() -> RdpAccountant.noiseMultiplierFor(Sampling.FIXED_SIZE, 1, 1_000_000,
        1e-5, 1e-9)).hasMessageContaining("no noise multiplier up to");
  }

  @Test
  void calibrated_dpSettingsFromBuilder_keepsAllButTheMultiplier() {
    DpSettings d = DpSettings.builder(DpMode.CLIENT).clip(0.5).delta(1e-6).adaptive().build();
    DpSettings c = d.calibrated(4, 0.2, 50);

    assertThat(c.spent(0.2, 50).epsilon()).isLessThanOrEqualTo(4);
    assertThat(c.withNoiseMultiplier(d.noiseMultiplier())).isEqualTo(d);
    assertThat(c.delta()).isEqualTo(1e-6);
    assertThat(DpSettings.builder(DpMode.CENTRAL).build()).isEqualTo(new DpSettings(
        DpMode.CENTRAL, 1, 1, java.util.Optional.empty(), 0, DpSettings.DEFAULT_DELTA, false));
    assertThatThrownBy(() -> DpSettings.builder(DpMode.CENTRAL).clip(-1).build())
        .hasMessage("clip must be positive and finite, got -1.0");
  }
}
