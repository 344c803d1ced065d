package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.local.ClientOptimizer;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.SettingException;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** config.json as the settings' one persisted form: written and read by the one schema. */
class SettingsSchemaTest {
  @TempDir Path dir;

  static Stream<SimulationSettings> everyKindOfSetting() {
    return Stream.of(
        SimulationSettings.builder().threads(2).build(),
        SimulationSettings.builder().algorithm(FederatedAlgorithm.named("fedadam", Map.of("eta", 0.0123)))
            .dataset(new DatasetSpec.Synthetic(0.5, 0.25)).clients(12).clientsPerRound(4)
            .rounds(3).seed(-42).threads(3).checkpointEvery(2)
            .byzantine(Byzantine.parse("1:noise:0.5")).out(Path.of("some where")).build(),
        SimulationSettings.builder().algorithm(FederatedAlgorithm.named("fedprox")).mu(0.25)
            .partition("dirichlet:0.3").model(ModelKind.MCLR).learningRate(0.0123456789)
            .clientOptimizer(ClientOptimizer.of("adam", Map.of("beta1", 0.8)))
            .clientMetric("loss", MetricAggregation.MAX).threads(1).build(),
        SimulationSettings.builder().dataset(DatasetSpec.parse("generated:99999,10,2"))
            .clients(3_000_000).clientsPerRound(1_000_000).rounds(1).threads(1)
            .engine(new Engine.Cluster("local[2]", Map.of(), 5)).build(),
        SimulationSettings.builder().model(ModelKind.MCLR).clients(20).clientsPerRound(10)
            .threads(1).dp(new DpSettings(DpMode.CLIENT, 0.5, 0.1, Optional.of(
                new DpSettings.Adaptive(0.3, 0.25, OptionalDouble.of(1.5))), 0.01, 1e-6, false)
                .withSecure(new DpSettings.Secure(8, 5, 12))).build(),
        SimulationSettings.builder().model(ModelKind.MCLR).clients(20).clientsPerRound(10)
            .threads(1).dp(new DpSettings(DpMode.CENTRAL, 1.1, 0.7, Optional.empty(), 0, 1e-5,
                true)).build());
  }

  @ParameterizedTest
  @MethodSource("everyKindOfSetting")
  void fromJson_whatToJsonWrote_givesTheSameSettings(SimulationSettings s) throws Exception {
    SimulationSettings back = SimulationSettings.fromJson(s.toJson());
    // A cluster's Spark settings are the command line's, not the run's record.
    assertThat(back).isEqualTo(s);
    assertThat(back.toJson()).isEqualTo(s.toJson());
  }

  @Test
  void read_runDirectory_readsItsConfig() throws Exception {
    SimulationSettings s = SimulationSettings.builder().rounds(7).threads(1).out(dir).build();
    Files.writeString(dir.resolve(RunFiles.CONFIG), s.toJson());
    assertThat(SimulationSettings.read(dir)).isEqualTo(s);
  }

  @Test
  void toJson_everyKeyIsTheSchemasInItsOrder() {
    SimulationSettings s = SimulationSettings.builder().threads(1).build();
    List<String> written = s.toJson().lines().filter(l -> l.startsWith("  \""))
        .map(l -> l.substring(3, l.indexOf('"', 3))).toList();
    assertThat(written).isSubsetOf(SettingsSchema.keys().stream().map(SettingsSchema.Key::name)
        .toList());
    assertThat(written.getFirst()).isEqualTo("config_version");
  }

  static Stream<Arguments> badFiles() {
    String good = SimulationSettings.builder().threads(1).build().toJson();
    return Stream.of(
        Arguments.of("{", null, "config.json is not JSON"),
        Arguments.of("[1, 2]", null, "config.json is not a JSON object"),
        Arguments.of(good.replace("\"rounds\"", "\"roundz\""), "roundz",
            "config.json: roundz is not a key of this Tributary's settings"),
        Arguments.of(good.replace("\"config_version\": 1", "\"config_version\": 2"),
            "config_version", "config.json: config_version version 2 is newer than this "
                + "Tributary's 1"),
        Arguments.of(good.replace("\"config_version\": 1,\n", ""), "config_version",
            "config.json: config_version is missing"),
        Arguments.of(good.replace("\"rounds\": 30", "\"rounds\": 1.5"), "rounds",
            "config.json: rounds must be a 32-bit integer, got 1.5"),
        Arguments.of(good.replace("\"rounds\": 30", "\"rounds\": \"30\""), "rounds",
            "config.json: rounds must be a 32-bit integer, got \"30\""),
        Arguments.of(good.replace("  \"rounds\": 30,\n", ""), "rounds",
            "config.json: rounds is missing"),
        Arguments.of(good.replace("\"seed\": 1", "\"seed\": 99999999999999999999"), "seed",
            "config.json: seed must be a 64-bit integer"),
        Arguments.of(good.replace("\"fedavg\"", "\"fedsgd\""), "algorithm",
            "config.json: algorithm unknown algorithm 'fedsgd'"),
        Arguments.of(good.replace("\"mu\": 0.0", "\"mu\": 0.5"), "mu",
            "config.json: mu must be 0 for an algorithm without a proximal term, got 0.5"),
        Arguments.of(good.replace("\"clients_per_round\": 5", "\"clients_per_round\": 50"),
            "clients_per_round", "config.json: clients_per_round must be in "
                + "[1, 10], got 50"),
        Arguments.of(good.replace("\"lr\": 0.1", "\"lr\": -1"), "lr",
            "config.json: lr must be positive and finite, got -1.0"));
  }

  @ParameterizedTest
  @MethodSource("badFiles")
  void fromJson_badFile_refusedNamingTheKey(String json, String key, String message) {
    assertThatThrownBy(() -> SimulationSettings.fromJson(json))
        .isInstanceOfSatisfying(SettingsFileException.class,
            e -> assertThat(e.key()).isEqualTo(Optional.ofNullable(key)))
        .hasMessageStartingWith(message);
  }

  @Test
  void fromJson_dpEditedByHand_refusedNamingTheEntry() {
    String json = everyKindOfSetting().toList().get(4).toJson()
        .replace("\"delta\": ", "\"deltaa\": ");
    assertThatThrownBy(() -> SimulationSettings.fromJson(json))
        .hasMessage("config.json: dp unknown entry 'deltaa'");
  }

  @Test
  void read_hugeFile_refusedBeforeReading() throws Exception {
    Files.write(dir.resolve(RunFiles.CONFIG), new byte[SettingsSchema.MAX_BYTES + 1]);
    assertThatThrownBy(() -> SimulationSettings.read(dir))
        .isInstanceOf(SettingsFileException.class).hasMessageContaining("is larger than");
  }

  @Test
  void checkSame_differentResultChangingKey_namesItWithBothValues() throws Exception {
    SimulationSettings s = SimulationSettings.builder().threads(1).build();
    SettingsSchema.checkSame(s.toJson(), s.withThreads(4).withOut(dir), dir);
    assertThatThrownBy(() -> SettingsSchema.checkSame(s.toJson(),
        SimulationSettings.builder().threads(1).learningRate(0.5).build(), dir))
        .hasMessage("resume: lr 0.5 differs from the run in " + dir + ", which has lr 0.1 "
            + "(resume with the run's settings, or start a new run)");
  }

  @Test
  void otherSetting_trainEvalEvery_scoresTrainingDataOnlyOnItsRounds() throws Exception {
    SimulationSettings s = SimulationSettings.builder().rounds(3).threads(1)
        .set(SettingsSchema.TRAIN_EVAL_EVERY, 2).build();
    assertThat(s.get(SettingsSchema.TRAIN_EVAL_EVERY)).isEqualTo(2);
    assertThat(s.toJson()).contains("\"train_eval_every\": 2");
    assertThat(s.commandLine()).containsSubsequence("--set", "train_eval_every=2");
    assertThat(SimulationSettings.fromJson(s.toJson())).isEqualTo(s);

    var rounds = Simulation.builder(s).build().run().history().rounds();

    // Round 2 is the 2N-th, round 3 the last; round 1 leaves the training data unscored.
    assertThat(rounds.get(0).trainLoss()).isNaN();
    assertThat(rounds.get(1).trainLoss()).isFinite();
    assertThat(rounds.get(2).trainAccuracy()).isFinite();
    assertThat(rounds).allSatisfy(r -> assertThat(r.testAccuracy()).isFinite());
  }

  @Test
  void otherSetting_outOfRange_refusedNamingIt() {
    assertThatThrownBy(() -> SimulationSettings.builder()
        .set(SettingsSchema.TRAIN_EVAL_EVERY, 0).build())
        .isInstanceOf(SettingException.class)
        .hasMessage("train_eval_every must be in [1, 1000000], got 0");
  }

  @Test
  void checkSame_configWrittenBeforeASettingExisted_meansItsDefault() throws Exception {
    SimulationSettings s = SimulationSettings.builder().threads(1).build();
    // Left out at its default, as in a file written before the setting existed.
    String old = s.toJson();
    assertThat(old).doesNotContain("train_eval_every");
    assertThat(SimulationSettings.fromJson(old)).isEqualTo(s);
    SettingsSchema.checkSame(old, s, dir);
    assertThatThrownBy(() -> SettingsSchema.checkSame(old, SimulationSettings.builder()
        .threads(1).set(SettingsSchema.TRAIN_EVAL_EVERY, 5).build(), dir))
        .hasMessageStartingWith("resume: train_eval_every 5 differs from the run in " + dir
            + ", which has train_eval_every 1");
  }
}
