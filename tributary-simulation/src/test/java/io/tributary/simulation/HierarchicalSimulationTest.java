package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.simulation.internal.FederatedRun;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hierarchical FedAvg in a simulation: recorded in config.json and rebuilt from it, the same as
 * FedAvg with one edge round and everyone taking part, private through edges, and its settings'
 * problems named.
 */
class HierarchicalSimulationTest {
  @TempDir Path dir;

  private static final FederatedAlgorithm TWO_BY_TWO = FederatedAlgorithm.named("hierfavg",
      Map.of("edges", 2.0, "edge_rounds", 2.0));

  private static SimulationSettings.Builder small(FederatedAlgorithm algorithm) {
    return SimulationSettings.builder().algorithm(algorithm).model(ModelKind.MCLR).clients(6)
        .clientsPerRound(4).rounds(3).seed(3).threads(2).checkpointEvery(1);
  }

  @Test
  void settings_hierfavg_roundTripThroughConfigJson() throws Exception {
    SimulationSettings s = small(TWO_BY_TWO).out(dir.resolve("run")).build();
    Simulation.builder(s).writeFiles().build().run();

    SimulationSettings read = SimulationSettings.read(dir.resolve("run"));

    assertThat(read.algorithm().registration().orElseThrow().hyperparameters()).containsExactly(Map.entry("edges", 2.0),
        Map.entry("edge_rounds", 2.0));
    assertThat(read).isEqualTo(s);
    assertThat(s.commandLine()).containsSequence("--edges", "2", "--edge-rounds", "2");
  }

  @Test
  void resume_hierfavgStoppedAfterRound2_endsBitIdenticalToAnUninterruptedRun()
      throws Exception {
    SimulationResult whole = Simulation.builder(small(TWO_BY_TWO).build()).build().run();
    Path run = dir.resolve("run");
    assertThatThrownBy(() -> Simulation.builder(small(TWO_BY_TWO).out(run).build()).writeFiles()
        .listener(SimulationTest.stopAfter(2)).build().run()).hasMessage("stopped on purpose");

    SimulationResult resumed = Simulation.builder(SimulationSettings.read(run)).writeFiles()
        .resume().build().run();

    assertThat(resumed.finalParameters()).isEqualTo(whole.finalParameters());
  }

  @Test
  void run_oneEdgeRoundEveryClient_isFedAvgWithinRounding() throws Exception {
    FederatedAlgorithm oneRound = FederatedAlgorithm.named("hierfavg", Map.of("edges", 3.0, "edge_rounds", 1.0));
    SimulationResult tiered = Simulation.builder(small(oneRound).clientsPerRound(6).build())
        .build().run();
    SimulationResult flat = Simulation.builder(small(FederatedAlgorithm.fedAvg()).clientsPerRound(6)
        .build()).build().run();

    for (int r = 0; r < 3; r++) {
      RoundRecord a = tiered.history().rounds().get(r);
      RoundRecord b = flat.history().rounds().get(r);
      assertThat(a.trainLoss()).isCloseTo(b.trainLoss(),
          org.assertj.core.data.Offset.offset(1e-5));
      // Only the edges' models reach the server: 3 of them, not 6 clients'.
      assertThat(a.bytesUp() * 2).isEqualTo(b.bytesUp());
      assertThat(a.algorithmMetric(FederatedRun.EDGE_BYTES_UP)).isEqualTo(b.bytesUp());
    }
  }

  @Test
  void run_dpAtEdges_reportsTheEdgeRoundsAccounting() throws Exception {
    DpSettings dp = DpSettings.builder(DpMode.CLIENT).noiseMultiplier(1).clip(1)
        .insecureSeededNoise(true).build();
    SimulationSettings.Builder b = small(TWO_BY_TWO).dp(dp);
    b.set(SettingsSchema.DP_AT, "edges");
    SimulationSettings s = b.build();

    RoundRecord last = Simulation.builder(s).build().run().history().last();

    // Two edges draw 2 of their 3 clients; two edge rounds at z = 1 count as z = 1/sqrt(2).
    assertThat(s.samplingRate()).isEqualTo(2.0 / 3);
    assertThat(s.tieredDp(0).orElseThrow().accountedNoiseMultiplier())
        .isEqualTo(1 / Math.sqrt(2));
    assertThat(last.algorithmMetric(RoundRecord.EPSILON))
        .isEqualTo(s.privacySpent(3).epsilon())
        .isGreaterThan(dp.spent(2.0 / 3, 3).epsilon());
    assertThat(last.algorithmMetrics()).containsKey("noise_stddev");
  }

  @Test
  void settings_badCombinations_areRefusedNamingTheSetting() {
    assertThatThrownBy(() -> small(TWO_BY_TWO).clientsPerRound(1).build())
        .isInstanceOf(SettingException.class)
        .hasMessage("clientsPerRound must be at least edges (2): every edge needs a client "
            + "each round, got 1");
    SimulationSettings.Builder noDp = small(TWO_BY_TWO);
    noDp.set(SettingsSchema.DP_AT, "edges");
    assertThatThrownBy(noDp::build)
        .hasMessage("dpAt applies only to dp with algorithm hierfavg");
    SimulationSettings.Builder serverNoise = small(TWO_BY_TWO).dp(DpSettings
        .builder(DpMode.CLIENT).noiseMultiplier(1).build());
    assertThatThrownBy(serverNoise::build).isInstanceOf(SettingException.class)
        .hasMessageContaining("noise at the server needs edge_rounds 1, got 2");
  }
}
