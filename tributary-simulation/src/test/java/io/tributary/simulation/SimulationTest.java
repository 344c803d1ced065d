package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.local.ClientOptimizer;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library's simulation: listeners, the typed history, resuming. */
class SimulationTest {
  @TempDir Path dir;

  /** A listener that stops the run, with "stopped on purpose", after round {@code last}. */
  static SimulationListener stopAfter(int last) {
    return new SimulationListener() {
      @Override
      public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
          throws IOException {
        if (round.round() == last) {
          throw new IOException("stopped on purpose");
        }
      }
    };
  }

  private static SimulationSettings.Builder small() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(5).clientsPerRound(3)
        .rounds(4).seed(3).threads(2).checkpointEvery(2);
  }

  /** A listener of one's own: records what it is told. */
  private static final class Recorder implements SimulationListener {
    final List<String> events = new ArrayList<>();

    @Override
    public void started(SimulationStart start) {
      events.add("started " + start.firstRound());
    }

    @Override
    public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters) {
      events.add("round " + round.round() + " " + parameters.keySet());
    }

    @Override
    public void finished(SimulationEnd end) {
      events.add("finished " + end.completed());
    }

    @Override
    public void close() {
      events.add("closed");
    }
  }

  @Test
  void run_simulationListenerOverridingOnlyTheGenericStartAndEnd_toldThemWithTheRun()
      throws Exception {
    List<String> events = new ArrayList<>();
    SimulationListener generic = new SimulationListener() {
      @Override
      public void started(RunStart start) {
        events.add("started " + start.firstRound() + " " + start.previous().size() + " "
            + start.settingsDisplay().isEmpty());
      }

      @Override
      public void finished(RunEnd end) {
        events.add("finished " + end.rounds().size() + " " + end.finalParameters().isPresent());
      }
    };
    Simulation.builder(small().rounds(2).build()).listener(generic).build().run();

    assertThat(events).containsExactly("started 1 0 false", "finished 2 true");
  }

  @Test
  void run_withoutFiles_returnsHistoryAndModelAndTellsListenersInOrder() throws Exception {
    Recorder recorder = new Recorder();
    SimulationResult result = Simulation.builder(small().build()).listener(recorder).build()
        .run();

    assertThat(result.history().size()).isEqualTo(4);
    assertThat(result.history().rounds()).extracting(RoundRecord::round)
        .containsExactly(1, 2, 3, 4);
    assertThat(result.history().last().testAccuracy()).isBetween(0.0, 1.0);
    assertThat(result.history().series(RoundRecord::clients)).containsOnly(3.0);
    assertThat(result.finalParameters()).isNotEmpty();
    assertThat(recorder.events).first().isEqualTo("started 1");
    assertThat(recorder.events).hasSize(7).endsWith("finished true", "closed");
    assertThat(recorder.events.get(1)).startsWith("round 1 [");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void run_sameSettingsTwice_bitIdenticalWhateverTheThreads() throws Exception {
    SimulationResult a = Simulation.builder(small().threads(1).build()).build().run();
    SimulationResult b = Simulation.builder(small().threads(4).build()).build().run();

    assertThat(b.finalParameters()).isEqualTo(a.finalParameters());
    assertThat(b.history().series(RoundRecord::testLoss))
        .isEqualTo(a.history().series(RoundRecord::testLoss));
  }

  @Test
  void resume_runStoppedAfterRound3_endsBitIdenticalToAnUninterruptedRun() throws Exception {
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(small().out(whole).build())
        .writeFiles().build().run();

    Path run = dir.resolve("run");
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
        .listener(stopAfter3).build().run()).hasMessage("stopped on purpose");
    assertThat(run.resolve(RunFiles.FINAL)).doesNotExist();

    SimulationResult resumed = Simulation.builder(small().threads(1).out(run).build())
        .writeFiles().resume().build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertThat(Files.readAllBytes(run.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(whole.resolve(RunFiles.FINAL)));
    assertThat(resumed.history().series(RoundRecord::testLoss))
        .isEqualTo(uninterrupted.history().series(RoundRecord::testLoss));
    assertThat(Files.readAllLines(run.resolve(RunFiles.METRICS))).hasSize(4);
  }

  @Test
  void run_listenerAnswersStopAfterRound2_endsWithThatModelAndResumesBitIdentical()
      throws Exception {
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(small().out(whole).build())
        .writeFiles().build().run();
    Path run = dir.resolve("run");
    Recorder recorder = new Recorder();
    SimulationListener target = new SimulationListener() {
      @Override
      public Optional<String> stopAfter(RoundRecord round) {
        return round.round() == 2 ? Optional.of("target reached") : Optional.empty();
      }
    };

    SimulationResult stopped = Simulation.builder(small().out(run).build()).writeFiles()
        .listener(recorder).listener(target).build().run();

    assertThat(stopped.outcome()).isEqualTo("Stopped after round 2: target reached.");
    assertThat(stopped.history().size()).isEqualTo(2);
    assertThat(recorder.events).endsWith("finished false", "closed");
    assertThat(Files.readAllLines(run.resolve(RunFiles.METRICS))).hasSize(2);
    assertThat(Files.readString(run.resolve(RunFiles.REPORT)))
        .contains("Stopped after round 2: target reached.");
    SimulationResult resumed = Simulation.builder(small().out(run).build()).writeFiles()
        .resume().build().run();
    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertThat(resumed.history().series(RoundRecord::testLoss))
        .isEqualTo(uninterrupted.history().series(RoundRecord::testLoss));
  }

  @Test
  void stop_calledFromAnotherThreadDuringRound1_runEndsAfterThatRound() throws Exception {
    Simulation[] sim = new Simulation[1];
    SimulationListener caller = new SimulationListener() {
      @Override
      public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
          throws IOException {
        if (round.round() == 1) {
          Thread t = Thread.ofPlatform().start(() -> sim[0].stop("asked by the operator"));
          try {
            t.join();
          } catch (InterruptedException e) {
            throw new IOException(e);
          }
        }
      }
    };
    sim[0] = Simulation.builder(small().build()).listener(caller).build();

    SimulationResult r = sim[0].run();

    assertThat(r.history().size()).isEqualTo(1);
    assertThat(r.outcome()).isEqualTo("Stopped after round 1: asked by the operator.");
    assertThat(r.finalParameters()).isNotEmpty();
  }

  @Test
  void resume_fedAdamStoppedAfterRound3_endsBitIdenticalWithItsOptimizerState() throws Exception {
    SimulationSettings.Builder adam = small().algorithm(FederatedAlgorithm.named("fedadam")).rounds(6);
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(adam.out(whole).build()).writeFiles()
        .build().run();

    Path run = dir.resolve("run");
    SimulationListener stopAfter3 = SimulationTest.stopAfter(3);
    assertThatThrownBy(() -> Simulation.builder(adam.out(run).build()).writeFiles()
        .listener(stopAfter3).build().run()).hasMessage("stopped on purpose");
    try (io.tributary.format.ModelFile m = io.tributary.format.ModelFile.open(
        run.resolve(RunFiles.MODEL))) {
      io.tributary.format.ModelTag tag = m.newest();
      assertThat(tag.trainingConfig().updaterStateNames()).containsExactly("m", "v");
      assertThat(tag.trainingConfig().hyperparameters()).containsEntry("optimizer_round", 2.0);
      assertThat(tag.updaterState()).hasSameSizeAs(tag.parameters());
    }

    SimulationResult resumed = Simulation.builder(adam.out(run).build()).writeFiles().resume()
        .build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertThat(Files.readAllBytes(run.resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(whole.resolve(RunFiles.FINAL)));
  }

  @Test
  void run_clientMetricMax_reportsTheBestClientAndTrainsTheSameModel() throws Exception {
    SimulationResult weighted = Simulation.builder(small().build()).build().run();
    SimulationResult best = Simulation.builder(small()
        .clientMetric("accuracy", io.tributary.learning.MetricAggregation.MAX).build())
        .build().run();

    assertThat(best.finalParameters()).isEqualTo(weighted.finalParameters());
    for (int r = 0; r < weighted.history().size(); r++) {
      RoundRecord w = weighted.history().rounds().get(r);
      RoundRecord b = best.history().rounds().get(r);
      assertThat(b.trainAccuracy()).isGreaterThanOrEqualTo(w.trainAccuracy());
      assertThat(b.trainLoss()).isEqualTo(w.trainLoss());
    }
  }

  @Test
  void run_suiteAlgorithms_learnOnDigits() throws Exception {
    for (String name : List.of("fedavg", "fedavgm", "fedadam", "fedyogi", "fedadagrad",
        "fedmedian", "fedtrimmedavg", "krum", "multikrum", "bulyan", "qfedavg")) {
      SimulationResult r = Simulation.builder(small().algorithm(FederatedAlgorithm.named(name)).rounds(12)
          .build()).build().run();
      assertThat(r.history().last().testAccuracy()).as(name).isGreaterThan(0.5);
    }
  }

  @Test
  void resume_otherSettings_isRefusedNamingTheSetting() throws Exception {
    Path run = dir.resolve("run");
    Simulation.builder(small().out(run).build()).writeFiles().build().run();

    assertThatThrownBy(() -> Simulation.builder(small().learningRate(0.5).out(run).build())
        .writeFiles().resume().build().run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resume: lr 0.5 differs from the run in " + run + ", which has lr 0.1 "
            + "(resume with the run's settings, or start a new run)");
  }

  @Test
  void writeFiles_directoryHoldingARun_isRefusedBeforeWriting() throws Exception {
    Path run = dir.resolve("run");
    Files.createDirectories(run);
    Files.writeString(run.resolve(RunFiles.METRICS), "mine\n");

    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles().build()
        .run()).isInstanceOf(RunFileException.class).hasMessageContaining("already holds a run");
    assertThat(Files.readString(run.resolve(RunFiles.METRICS))).isEqualTo("mine\n");
    assertThat(run.resolve(RunFiles.CONFIG)).doesNotExist();
  }

  @Test
  void seeds_publicDerivation_isTheDocumentedSplitMix() {
    assertThat(Seeds.model(1)).isEqualTo(Seeds.derive(1, Seeds.MODEL));
    assertThat(Seeds.shuffle(1, 3, 4)).isEqualTo(Seeds.derive(Seeds.derive(1, Seeds.SHUFFLE + 3),
        4));
    // SplitMix64's first output for state 0 + golden: a published constant of the generator.
    assertThat(Seeds.derive(0, 0)).isEqualTo(0xE220A8397B1DCDAFL);
  }

  @Test
  void run_clientAdam_learnsOnDigitsAndRepeatsBitForBit() throws Exception {
    SimulationSettings settings = small().clientOptimizer(ClientOptimizer.of("adam", Map.of()))
        .learningRate(0.01).rounds(6).build();

    SimulationResult a = Simulation.builder(settings).build().run();
    SimulationResult b = Simulation.builder(settings.withOut(null)).build().run();

    assertThat(a.history().last().testAccuracy()).isGreaterThan(0.7);
    assertThat(b.finalParameters()).isEqualTo(a.finalParameters());
  }

  @Test
  void run_clientOptimizers_differFromSgdAndLearn() throws Exception {
    SimulationResult sgd = Simulation.builder(small().rounds(3).build()).build().run();
    Map<String, Double> rates = Map.of("momentum", 0.01, "adagrad", 0.1, "yogi", 0.01);
    for (String name : List.of("momentum", "adagrad", "yogi")) {
      SimulationResult r = Simulation.builder(small().rounds(3).learningRate(rates.get(name))
          .clientOptimizer(name, Map.of()).build()).build().run();
      assertThat(r.finalParameters()).as(name).isNotEqualTo(sgd.finalParameters());
      assertThat(r.history().last().testAccuracy()).as(name).isGreaterThan(0.5);
    }
  }

  @Test
  void resume_clientAdamStoppedAfterRound3_endsBitIdenticalToAnUninterruptedRun()
      throws Exception {
    SimulationSettings.Builder adam = small().clientOptimizer("adam", Map.of("beta1", 0.8))
        .learningRate(0.01);
    SimulationResult whole = Simulation.builder(adam.out(dir.resolve("whole")).build())
        .writeFiles().build().run();
    Path run = dir.resolve("run");
    SimulationListener stopAfter3 = new SimulationListener() {
      @Override
      public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
          throws IOException {
        if (round.round() == 3) {
          throw new IOException("stopped on purpose");
        }
      }
    };
    assertThatThrownBy(() -> Simulation.builder(adam.out(run).build()).writeFiles()
        .listener(stopAfter3).build().run()).hasMessage("stopped on purpose");

    SimulationResult resumed = Simulation.builder(adam.out(run).build()).writeFiles().resume()
        .build().run();

    assertThat(resumed.finalParameters()).isEqualTo(whole.finalParameters());
    assertThat(Files.readString(run.resolve("config.json")))
        .contains("\"client_optimizer\": \"adam\"");
  }
}
