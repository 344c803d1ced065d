package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A simulation tells each round's stages through the shared round step, not each client. */
class SimulationProgressTest {
  @TempDir Path dir;

  @Test
  void run_twoRounds_tellsEachRoundsStagesWithTheirCounts() throws Exception {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    RoundListener listener = new RoundListener() {
      @Override
      public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {
        log.add("ended " + metrics.round());
      }

      @Override
      public void roundStarted(int round) {
        log.add("started " + round);
      }

      @Override
      public void stage(int round, String stage, int clients) {
        log.add(round + " " + stage + " over " + clients);
      }

      @Override
      public void clientReported(int round, String client) {
        log.add(round + " reported " + client);
      }

      @Override
      public void stageEnded(int round, String stage, int reported, List<String> failures) {
        log.add(round + " " + stage + " ended: " + reported + " reported, " + failures);
      }
    };
    SimulationSettings settings = SimulationSettings.builder().clients(10).clientsPerRound(5)
        .rounds(2).localEpochs(1).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(1).out(dir.resolve("run")).build();

    Simulation.builder(settings).listener(listener).build().run();

    assertThat(log).startsWith("started 1", "1 fit over 5", "1 fit ended: 5 reported, []")
        .contains("ended 1", "started 2", "2 fit over 5", "2 fit ended: 5 reported, []",
            "ended 2")
        .noneMatch(l -> l.contains("reported client"));
    assertThat(log.indexOf("ended 1")).isLessThan(log.indexOf("started 2"));
    // Evaluation stages come between a round's fit and its end, each with its final count.
    List<String> round1 = log.subList(0, log.indexOf("ended 1"));
    assertThat(round1.stream().filter(l -> l.startsWith("1 evaluate")).toList())
        .allMatch(l -> l.contains(" over ") || l.contains(" ended: "));
  }
}
