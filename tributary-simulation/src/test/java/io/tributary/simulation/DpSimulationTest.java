package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.learning.SettingException;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.RdpAccountant;
import io.tributary.privacy.Sampling;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A simulation with differentially private aggregation: metrics, accounting, noise, resume. */
class DpSimulationTest {
  @TempDir Path dir;

  private static DpSettings dp(boolean seeded) {
    return new DpSettings(DpMode.CENTRAL, 1.1, 1.0, Optional.empty(), 0, 1e-5, seeded);
  }

  private static SimulationSettings.Builder small(DpSettings dp) {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(8).clientsPerRound(4)
        .rounds(3).seed(3).threads(2).dp(dp);
  }

  @Test
  void run_withDp_epsilonInMetricsGrowsEachRoundAndMatchesRdpAccountant() throws Exception {
    SimulationResult r = Simulation.builder(small(dp(true)).build()).build().run();
    double previous = 0;
    RdpAccountant accountant = new RdpAccountant();
    for (RoundRecord round : r.history().rounds()) {
      accountant.compose(Sampling.FIXED_SIZE, 4.0 / 8, 1.1, 1);
      double epsilon = round.algorithmMetric("epsilon");
      assertThat(epsilon).isGreaterThan(previous)
          .isEqualTo(accountant.epsilon(1e-5).epsilon());
      assertThat(round.algorithmMetric("clip_norm")).isEqualTo(1.0);
      assertThat(round.algorithmMetric("noise_stddev")).isEqualTo(1.1 * 1.0 / 4);
      previous = epsilon;
    }
  }

  @Test
  void run_seededNoise_twoRunsBitIdentical() throws Exception {
    SimulationResult a = Simulation.builder(small(dp(true)).threads(1).build()).build().run();
    SimulationResult b = Simulation.builder(small(dp(true)).threads(4).build()).build().run();
    assertThat(b.finalParameters()).isEqualTo(a.finalParameters());
  }

  @Test
  void run_secureNoise_twoRunsDiffer() throws Exception {
    SimulationResult a = Simulation.builder(small(dp(false)).build()).build().run();
    SimulationResult b = Simulation.builder(small(dp(false)).build()).build().run();
    assertThat(b.finalParameters()).isNotEqualTo(a.finalParameters());
  }

  @Test
  void run_adaptiveClipping_clipNormInMetricsChanges() throws Exception {
    DpSettings adaptive = new DpSettings(DpMode.CLIENT, 0.5, 0.1, Optional.of(
        new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(1))), 0, 1e-5, true);
    SimulationResult r = Simulation.builder(small(adaptive).build()).build().run();
    List<Double> norms = r.history().rounds().stream()
        .map(x -> x.algorithmMetric("clip_norm")).toList();
    assertThat(norms.getFirst()).isEqualTo(0.1);
    assertThat(norms).doesNotHaveDuplicates();
  }

  @Test
  void run_clientDpOverSecAgg_closeToThePlainClientDpRunAndRecorded() throws Exception {
    DpSettings client = new DpSettings(DpMode.CLIENT, 1.1, 1.0, Optional.empty(), 0, 1e-5, true);
    DpSettings secure = client.withSecure(new DpSettings.Secure(3, 2, 20));
    SimulationResult plain = Simulation.builder(small(client).build()).build().run();
    SimulationResult sec = Simulation.builder(small(secure).build()).build().run();
    // Same seeded noise, the same clipped updates; only 20-bit quantization of each element in
    // [-1, 1] separates the runs: 4 clients x half a step of 2/(2^20-1), over 4, per round.
    double bound = 3 * (2.0 / ((1 << 20) - 1)) / 2 + 1e-6;
    plain.finalParameters().forEach((name, t) -> {
      float[] a = t.toFloatArray();
      float[] b = sec.finalParameters().get(name).toFloatArray();
      for (int j = 0; j < a.length; j++) {
        assertThat((double) b[j]).as("%s[%d]", name, j)
            .isCloseTo(a[j], org.assertj.core.api.Assertions.within(bound));
      }
    });
    assertThat(sec.finalParameters()).isNotEqualTo(plain.finalParameters());
    SimulationSettings s = small(secure).out(dir.resolve("run")).build();
    assertThat(s.toJson()).contains("\"secure_aggregation\": \"secagg+ neighbours 3 threshold 2 "
        + "bits 20\"");
    assertThat(String.join(" ", s.commandLine())).contains("--dp client").endsWith(
        "--secure-aggregation --secagg-neighbours 3 --secagg-threshold 2 --secagg-bits 20");
  }

  @Test
  void settings_withDp_recordedInConfigAndCommandLine() {
    SimulationSettings s = small(dp(true)).out(dir.resolve("run")).build();
    assertThat(s.toJson()).contains("\"dp\": {\"dp\": \"central\", \"noise_multiplier\": 1.1, "
        + "\"clipping_norm\": 1, \"delta\": 1.0e-5, \"noise\": \"insecure_seeded\"}");
    assertThat(String.join(" ", s.commandLine())).endsWith("--dp central --noise-multiplier 1.1 "
        + "--clip 1 --delta 1.0e-5 --insecure-seeded-noise");
  }

  @Test
  void settings_dpWithKrum_refusedNamingDp() {
    assertThatThrownBy(() -> small(dp(true)).algorithm(FederatedAlgorithm.named("krum")).build())
        .isInstanceOf(SettingException.class).hasMessageStartingWith("dp replaces the mean");
  }

  /** The lines of a run's metrics.jsonl with every seconds figure left out. */
  private static List<String> metricsButSeconds(Path run) throws Exception {
    return Files.readAllLines(run.resolve(RunFiles.METRICS)).stream()
        .map(l -> l.replaceAll("\"[a-z_]*seconds\": [-0-9.eE+]+", "")).toList();
  }

  /** Runs {@code settings} whole, and stopped after round 3 and resumed; asserts them equal. */
  private void assertResumedEqualsUninterrupted(SimulationSettings.Builder settings)
      throws Exception {
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(settings.out(whole).build())
        .writeFiles().build().run();
    Path run = dir.resolve("run");
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(settings.out(run).build()).writeFiles()
        .listener(stopAfter3).build().run()).hasMessage("stopped on purpose");

    SimulationResult resumed = Simulation.builder(settings.out(run).build()).writeFiles()
        .resume().build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertThat(Files.readAllBytes(run.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(whole.resolve(RunFiles.FINAL)));
    assertThat(metricsButSeconds(run)).hasSize(5).isEqualTo(metricsButSeconds(whole));
  }

  @Test
  void resume_centralDpSeededNoiseStoppedAfterRound3_endsBitIdenticalToAnUninterruptedRun()
      throws Exception {
    assertResumedEqualsUninterrupted(small(dp(true)).rounds(5).checkpointEvery(2));
  }

  @Test
  void resume_clientDpAdaptiveClipSeededNoiseStoppedAfterRound3_endsBitIdentical()
      throws Exception {
    DpSettings adaptive = new DpSettings(DpMode.CLIENT, 0.5, 0.1, Optional.of(
        new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(1))), 0, 1e-5, true);
    assertResumedEqualsUninterrupted(small(adaptive).rounds(5).checkpointEvery(2));
    try (ModelFile m = ModelFile.open(dir.resolve("run").resolve(RunFiles.MODEL))) {
      assertThat(m.tag("round-0002").trainingConfig().properties())
          .containsEntry("aggregator/round", "int64[] 2")
          .containsKeys("aggregator/clip_norm", "aggregator/metrics/clip_norm",
              "aggregator/metrics/noise_stddev");
    }
  }

  @Test
  void resume_secureNoise_goesOnWithEpsilonFromTheRoundCount() throws Exception {
    Path run = dir.resolve("run");
    SimulationSettings.Builder s = small(dp(false)).rounds(4).checkpointEvery(2).out(run);
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(s.build()).writeFiles().listener(stopAfter3)
        .build().run()).hasMessage("stopped on purpose");

    SimulationResult resumed = Simulation.builder(s.build()).writeFiles().resume().build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(2);
    RdpAccountant accountant = new RdpAccountant();
    for (RoundRecord round : resumed.history().rounds()) {
      accountant.compose(Sampling.FIXED_SIZE, 4.0 / 8, 1.1, 1);
      assertThat(round.algorithmMetric("epsilon")).as("round %d", round.round())
          .isEqualTo(accountant.epsilon(1e-5).epsilon());
    }
    assertThat(resumed.history().rounds()).extracting(RoundRecord::round)
        .containsExactly(1, 2, 3, 4);
  }

  @Test
  void resume_checkpointWithMismatchedAggregatorState_refusedBeforeTouchingFiles()
      throws Exception {
    Path run = dir.resolve("run");
    SimulationSettings s = small(dp(true)).rounds(4).checkpointEvery(2).out(run).build();
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(s).writeFiles().listener(stopAfter3).build()
        .run()).hasMessage("stopped on purpose");
    Path model = run.resolve(RunFiles.MODEL);
    try (ModelFile m = ModelFile.open(model)) {
      ModelTag tag = m.tag("round-0002");
      TrainingConfig c = tag.trainingConfig();
      SequencedMap<String, String> props = new LinkedHashMap<>(c.properties());
      props.put("aggregator/clip_norm", "int64[] 1");
      TagContents.Builder b = TagContents.builder().trainingConfig(c.withProperties(props));
      tag.parameters().forEach(b::parameter);
      tag.graph().ifPresent(b::graph);
      ModelWriter.addTag(model, "round-0003", b.build());
    }
    byte[] metrics = Files.readAllBytes(run.resolve(RunFiles.METRICS));
    byte[] checkpoints = Files.readAllBytes(model);

    assertThatThrownBy(() -> Simulation.builder(s).writeFiles().resume().build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resume: " + model + "'s newest checkpoint does not fit the run: "
            + "aggregator state clip_norm is int64[] in the checkpoint, float64 in the "
            + "algorithm; start a new run");
    assertThat(Files.readAllBytes(run.resolve(RunFiles.METRICS))).isEqualTo(metrics);
    assertThat(Files.readAllBytes(model)).isEqualTo(checkpoints);
  }
}
