package io.tributary.privacy.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.privacy.PrivacySpent;
import io.tributary.privacy.RdpAccountant;
import io.tributary.privacy.Sampling;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The DP settings name a bad value as the record does and account like the RDP accountant. */
class DpSettingsTest {
  private static DpSettings fixed(double z, double c, double delta) {
    return new DpSettings(DpMode.CENTRAL, z, c, Optional.empty(), 0, delta, false);
  }

  @ParameterizedTest
  @CsvSource({"0,1,1e-5,noiseMultiplier", "-1,1,1e-5,noiseMultiplier",
      "1,0,1e-5,clip", "1,-2,1e-5,clip", "1,1,0,delta", "1,1,1,delta",
      "NaN,1,1e-5,noiseMultiplier", "1,Infinity,1e-5,clip"})
  void constructor_badValue_failsNamingTheSetting(double z, double c, double delta,
      String setting) {
    assertThatThrownBy(() -> fixed(z, c, delta)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(setting + " must be");
  }

  @Test
  void forRemoteClients_medianAlgorithm_settingExceptionNamingDpAndTheAlgorithm() {
    io.tributary.learning.FederatedAlgorithm median = io.tributary.learning.FederatedAlgorithm
        .of("fedmedian", new io.tributary.learning.aggregation.CoordinateMedian());
    assertThatThrownBy(() -> fixed(1, 1, 1e-5).forRemoteClients(median, 4, 1))
        .isInstanceOfSatisfying(io.tributary.learning.SettingException.class,
            e -> assertThat(e.setting()).isEqualTo("dp"))
        .hasMessage("dp replaces the mean of the updates, so it applies only to algorithms that "
            + "average them, not fedmedian");
    assertThat(fixed(1, 1, 1e-5).forRemoteClients(io.tributary.learning.FederatedAlgorithm
        .fedAvg(), 4, 1).aggregator()).isInstanceOf(DpAggregator.class);
  }

  @Test
  void adaptive_badValues_failNamingTheSetting() {
    assertThatThrownBy(() -> new DpSettings.Adaptive(1.5, 0.2, OptionalDouble.empty()))
        .hasMessageStartingWith("targetQuantile");
    assertThatThrownBy(() -> new DpSettings.Adaptive(0.5, 0, OptionalDouble.empty()))
        .hasMessageStartingWith("clipLr");
    assertThatThrownBy(() -> new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(-1)))
        .hasMessageStartingWith("clippedCountStddev");
    DpSettings s = new DpSettings(DpMode.CENTRAL, 1, 1,
        Optional.of(DpSettings.Adaptive.defaults()), 0, 1e-5, false);
    assertThatThrownBy(() -> s.aggregator(10, 1))
        .hasMessageStartingWith("clippedCountStddev must be above noiseMultiplier / 2");
    assertThat(s.aggregator(100, 1).adaptive().orElseThrow().clippedCountStddev()).isEqualTo(5);
  }

  @Test
  void localNoise_withCentralDp_failsNamingTheSetting() {
    assertThatThrownBy(() -> new DpSettings(DpMode.CENTRAL, 1, 1, Optional.empty(), 0.1, 1e-5,
        false)).hasMessage("localNoiseStddev applies only to mode client");
  }

  @Test
  void spent_fixedSizeSampling_matchesRdpAccountantRoundByRound() {
    DpSettings s = fixed(1.1, 1, 1e-5);
    double previous = 0;
    for (int r = 1; r <= 5; r++) {
      RdpAccountant a = new RdpAccountant();
      for (int i = 0; i < r; i++) {
        a.compose(Sampling.FIXED_SIZE, 0.05, 1.1, 1);
      }
      PrivacySpent got = s.spent(0.05, r);
      assertThat(got.epsilon()).isEqualTo(a.epsilon(1e-5).epsilon()).isGreaterThan(previous);
      previous = got.epsilon();
    }
  }

  @Test
  void commandLine_adaptiveSeeded_spellsEveryFlag() {
    DpSettings s = new DpSettings(DpMode.CLIENT, 1.5, 0.1, Optional.of(
        new DpSettings.Adaptive(0.3, 0.1, OptionalDouble.of(2))), 0.01, 1e-6, true);
    assertThat(String.join(" ", s.commandLine())).isEqualTo("--dp client --noise-multiplier 1.5"
        + " --clip 0.1 --adaptive-clip --target-quantile 0.3 --clip-lr 0.1"
        + " --clipped-count-stddev 2 --local-noise-stddev 0.01 --delta 1.0e-6"
        + " --insecure-seeded-noise");
    DpAggregator a = s.aggregator(10, 3);
    assertThat(a.noise()).isEqualTo(DpNoise.seededForExperimentsOnlyNotPrivate(3));
    assertThat(a.localStddev()).isEqualTo(0.01);
    assertThat(fixed(1, 1, 1e-5).aggregator(10, 3).noise()).isEqualTo(DpNoise.secure());
  }
}
