package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.local.ClientOptimizer;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.SettingException;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** --engine: parsing, what the settings record, the settings codec and a missing provider. */
class EngineTest {
  @Test
  void parse_acceptsLocalLocalNAndSparkUrls() {
    assertThat(Engine.parse("local", 0)).isEqualTo(Engine.LOCAL);
    assertThat(Engine.parse("local[2]", 4)).isEqualTo(new Engine.Cluster("local[2]", Map.of(), 4));
    assertThat(Engine.parse("spark://127.0.0.1:7077", 0))
        .isInstanceOf(Engine.Cluster.class);
    assertThatThrownBy(() -> Engine.parse("yarn", 0)).hasMessage("engine must be local, local[N] or spark://HOST:PORT, got 'yarn'");
    assertThatThrownBy(() -> Engine.parse("local", 3)).hasMessageStartingWith("partitions applies only");
    assertThatThrownBy(() -> Engine.parse("local[2]", -1)).hasMessageStartingWith("partitions must be");
  }

  @Test
  void clusterEngine_isRecordedButLocalRunsKeepTheirFiles() {
    SimulationSettings local = SimulationSettings.builder().threads(2).build();
    assertThat(local.toJson()).doesNotContain("engine");
    SimulationSettings cluster = local.withEngine(new Engine.Cluster("local[2]", Map.of(), 3));
    assertThat(cluster.toJson()).contains("\"engine\": \"local[2]\"")
        .contains("\"partitions\": 3");
    assertThat(cluster.commandLine()).containsSubsequence("--engine", "local[2]",
        "--partitions", "3");
  }

  @Test
  void codec_roundTripsEverySettingAWorkerNeeds() {
    SimulationSettings s = SimulationSettings.builder().algorithm(FederatedAlgorithm.named("fedadam"))
        .dataset(new DatasetSpec.Synthetic(0.5, 0.25)).clients(12).clientsPerRound(4)
        .rounds(3).localEpochs(2).batchSize(7).learningRate(0.0123456789).seed(-42)
        .threads(3).checkpointEvery(2).byzantine(Byzantine.parse("1:noise:0.5"))
        .clientOptimizer(ClientOptimizer.of("adam", Map.of("beta1", 0.8)))
        .clientMetric("loss", MetricAggregation.MAX).out(Path.of("somewhere"))
        .engine(new Engine.Cluster("local[2]", Map.of(), 0)).build();
    SimulationSettings back = SettingsCodec.decode(SettingsCodec.encode(s));
    assertThat(back).isEqualTo(s.withOut(null).withEngine(Engine.LOCAL));
    assertThat(SettingsCodec.encode(back)).isEqualTo(SettingsCodec.encode(s));
  }

  @Test
  void codec_generatedPopulation_roundTrips() {
    SimulationSettings s = SimulationSettings.builder()
        .dataset(DatasetSpec.parse("generated:99999,10,2")).clients(3_000_000)
        .clientsPerRound(1_000_000).rounds(1).build();
    assertThat(SettingsCodec.decode(SettingsCodec.encode(s))).isEqualTo(s);
  }

  @Test
  void codec_differentialPrivacy_roundTripsEveryField() {
    for (DpSettings dp : List.of(
        new DpSettings(DpMode.CENTRAL, 1.1, 0.7, Optional.empty(), 0, 1e-5, true),
        new DpSettings(DpMode.CLIENT, 0.5, 0.1, Optional.of(new DpSettings.Adaptive(0.3, 0.25,
            OptionalDouble.of(1.5))), 0.01, 1e-6, false),
        new DpSettings(DpMode.CLIENT, 0.5, 0.1, Optional.of(DpSettings.Adaptive.defaults()), 0,
            1e-5, true))) {
      SimulationSettings s = SimulationSettings.builder().model(ModelKind.MCLR).clients(20)
          .clientsPerRound(10).rounds(2).dp(dp).build();
      assertThat(SettingsCodec.decode(SettingsCodec.encode(s))).as("%s", dp).isEqualTo(s);
    }
  }

  @Test
  void codec_dpOverSecureAggregation_refusedNamingTheSetting() {
    SimulationSettings s = SimulationSettings.builder().model(ModelKind.MCLR).clients(20)
        .clientsPerRound(10).rounds(2).dp(new DpSettings(DpMode.CLIENT, 1.1, 1.0,
            Optional.empty(), 0, 1e-5, true).withSecure(DpSettings.Secure.defaults())).build();
    assertThatThrownBy(() -> SettingsCodec.encode(s)).isInstanceOf(
        SettingException.class).hasMessageStartingWith("dp.secure does not run on a cluster");
  }

  @Test
  void codec_refusesWhatWorkersCannotRebuild() {
    assertThatThrownBy(() -> SettingsCodec.decode(new byte[] {1, 2, 3, 4, 5}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void settingsAClusterCannotRebuild_areRefusedBeforeAnyFile(@org.junit.jupiter.api.io.TempDir
      Path dir) {
    SimulationSettings s = SimulationSettings.builder().model(ModelKind.MCLR).clients(4)
        .clientsPerRound(2).rounds(1).threads(1)
        .algorithm(FederatedAlgorithm.fedAvg().withName("mine"))
        .out(dir.resolve("run"))
        .engine(new Engine.Cluster("local[2]", Map.of(), 0)).build();
    assertThatThrownBy(() -> Simulation.builder(s).writeFiles().build().run())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("composed in code");
    assertThat(dir.resolve("run")).doesNotExist();
  }

  @Test
  void clusterEngineWithoutItsProvider_stopsWithOneLine() {
    SimulationSettings s = SimulationSettings.builder().model(ModelKind.MCLR).clients(4)
        .clientsPerRound(2).rounds(1).threads(1)
        .engine(new Engine.Cluster("spark://127.0.0.1:1", Map.of(), 0)).build();
    assertThatThrownBy(() -> Simulation.builder(s).build().run())
        .isInstanceOf(SimulationStoppedException.class)
        .hasMessageStartingWith("Could not start the engine spark://127.0.0.1:1: the engine "
            + "spark://127.0.0.1:1 needs tributary-spark on the class path")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }
}
