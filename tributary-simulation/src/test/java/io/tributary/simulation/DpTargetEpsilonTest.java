package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import org.junit.jupiter.api.Test;

/** {@code Builder.dpTargetEpsilon}: the noise multiplier calibrated to the run's q and rounds. */
class DpTargetEpsilonTest {
  private static SimulationSettings.Builder settings() {
    return SimulationSettings.builder().clients(10).clientsPerRound(5).rounds(3).localEpochs(1)
        .threads(1).dp(DpSettings.builder(DpMode.CENTRAL).clip(1).insecureSeededNoise(true)
            .build());
  }

  @Test
  void build_targetEpsilon_recordsTheCalibratedMultiplierAndTheRunStaysWithinIt()
      throws Exception {
    SimulationSettings s = settings().dpTargetEpsilon(8).build();
    DpSettings dp = s.dp().orElseThrow();

    assertThat(dp.spent(s.samplingRate(), s.rounds()).epsilon()).isLessThanOrEqualTo(8);
    assertThat(dp.withNoiseMultiplier(dp.noiseMultiplier() * 0.999).spent(s.samplingRate(),
        s.rounds()).epsilon()).isGreaterThan(8);
    assertThat(SimulationSettings.fromJson(s.toJson())).isEqualTo(s);
    SimulationResult r = Simulation.builder(s).build().run();
    assertThat(r.history().last().algorithmMetric(RoundRecord.EPSILON)).isLessThanOrEqualTo(8);
  }

  @Test
  void build_moreRounds_moreNoise() {
    assertThat(settings().rounds(30).dpTargetEpsilon(8).build().dp().orElseThrow()
        .noiseMultiplier()).isGreaterThan(settings().dpTargetEpsilon(8).build().dp()
            .orElseThrow().noiseMultiplier());
  }

  @Test
  void build_targetWithoutDpOrOutOfRange_namedAsTheLibraryNamesIt() {
    assertThatThrownBy(() -> SimulationSettings.builder().dpTargetEpsilon(3).build())
        .isInstanceOf(SettingException.class)
        .hasMessage("dpTargetEpsilon applies only with dp");
    assertThatThrownBy(() -> settings().dpTargetEpsilon(-1).build())
        .isInstanceOf(SettingException.class)
        .hasMessage("dpTargetEpsilon: the target epsilon must be positive and finite, got -1.0");
  }
}
