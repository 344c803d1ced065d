package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;

/** Resuming from a result or a checkpoint held in memory, with no file written or read. */
class ResumeFromMemoryTest {
  /** FedAdam, whose moments and step count must come back for the same bits. */
  private static SimulationSettings.Builder fedAdam() {
    return SimulationSettings.builder().algorithm(FederatedAlgorithm.named("fedadam")).model(ModelKind.MCLR)
        .clients(6).clientsPerRound(3).rounds(5).seed(11).threads(2);
  }

  /** Central DP with adaptive clipping and seeded noise: the aggregator's state comes back. */
  private static SimulationSettings.Builder privateRun() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(10).clientsPerRound(5)
        .rounds(4).seed(5).threads(1).dp(DpSettings.builder(DpMode.CENTRAL).noiseMultiplier(0.2)
            .clip(0.5).adaptive().insecureSeededNoise(true).build());
  }

  /** A listener that asks the run to stop after round {@code last}. */
  private static SimulationListener stopAt(int last) {
    return new SimulationListener() {
      @Override
      public Optional<String> stopAfter(RoundRecord round) {
        return round.round() == last ? Optional.of("paused") : Optional.empty();
      }
    };
  }

  @Test
  void resumeFrom_resultStoppedAfterRound2_sameBitsAsAnUninterruptedRun() throws Exception {
    SimulationResult uninterrupted = Simulation.builder(fedAdam().build()).build().run();

    SimulationResult stopped = Simulation.builder(fedAdam().build())
        .listener(stopAt(2)).build().run();
    assertThat(stopped.complete()).isFalse();
    assertThat(stopped.checkpoint()).get().extracting(ResumePoint::round).isEqualTo(2);
    SimulationResult resumed = Simulation.builder(fedAdam().threads(1).build())
        .resumeFrom(stopped).build().run();

    assertThat(resumed.complete()).isTrue();
    assertThat(resumed.resumedAfter()).isEqualTo(2);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertSameRounds(resumed, uninterrupted);
  }

  @Test
  void resumeFrom_privateRunWithAdaptiveClipping_sameBitsAsAnUninterruptedRun()
      throws Exception {
    SimulationResult uninterrupted = Simulation.builder(privateRun().build()).build().run();

    SimulationResult first = Simulation.builder(privateRun().build())
        .listener(stopAt(1)).build().run();
    SimulationResult second = Simulation.builder(privateRun().build()).resumeFrom(first)
        .listener(stopAt(3)).build().run();
    SimulationResult third = Simulation.builder(privateRun().build()).resumeFrom(second)
        .build().run();

    assertThat(third.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertSameRounds(third, uninterrupted);
  }

  @Test
  void resumeFrom_checkpointAListenerKept_sameBitsAsAnUninterruptedRun() throws Exception {
    SimulationSettings settings = fedAdam().build();
    SimulationResult uninterrupted = Simulation.builder(settings).build().run();
    List<RoundRecord> rounds = new ArrayList<>();
    ResumePoint[] kept = new ResumePoint[1];
    SimulationListener keeper = new SimulationListener() {
      @Override
      public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
          Optional<UpdaterState> updater) {
        rounds.add(round);
        if (round.round() == 3) {
          kept[0] = new ResumePoint(3, parameters, settings.commandLine(), updater, rounds);
        }
      }
    };
    Simulation.builder(settings).listener(keeper).build().run();

    SimulationResult resumed = Simulation.builder(settings).resumeFrom(kept[0]).build().run();

    assertThat(resumed.resumedAfter()).isEqualTo(3);
    assertThat(resumed.finalParameters()).isEqualTo(uninterrupted.finalParameters());
    assertSameRounds(resumed, uninterrupted);
  }

  @Test
  void resumeFrom_otherLearningRate_refusedNamingTheSetting() throws Exception {
    SimulationResult stopped = Simulation.builder(fedAdam().build())
        .listener(stopAt(1)).build().run();

    assertThatThrownBy(() -> Simulation.builder(fedAdam().learningRate(0.5).build())
        .resumeFrom(stopped)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("resumeFrom: lr 0.5 differs from the run given");
    assertThatThrownBy(() -> Simulation.builder(fedAdam().learningRate(0.5).build())
        .resumeFrom(stopped.checkpoint().orElseThrow()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--lr");
  }

  @Test
  void build_resumeAndResumeFromTogether_refused() throws Exception {
    SimulationResult stopped = Simulation.builder(fedAdam().build())
        .listener(stopAt(1)).build().run();

    assertThatThrownBy(() -> Simulation.builder(fedAdam().out(java.nio.file.Path.of("x"))
        .build()).resume().resumeFrom(stopped).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one of them");
  }

  /** The same measurements round by round: every value but the wall-clock seconds. */
  private static void assertSameRounds(SimulationResult a, SimulationResult b) {
    assertThat(a.history().rounds()).hasSameSizeAs(b.history().rounds());
    for (var metric : List.<java.util.function.ToDoubleFunction<RoundRecord>>of(
        RoundRecord::trainLoss, RoundRecord::testLoss, RoundRecord::testAccuracy,
        RoundRecord::clientLoss, RoundRecord::examples)) {
      assertThat(a.history().series(metric)).isEqualTo(b.history().series(metric));
    }
    for (int i = 0; i < a.history().rounds().size(); i++) {
      assertThat(a.history().rounds().get(i).algorithmMetrics())
          .isEqualTo(b.history().rounds().get(i).algorithmMetrics());
    }
  }
}
