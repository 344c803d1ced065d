package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A simulation tells each round's stages and, while each stage goes, each of its clients. */
class SimulationProgressTest {
  @TempDir Path dir;

  /** A listener that writes each event it is told as one line. */
  private static RoundListener logTo(List<String> log) {
    return new RoundListener() {
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
      public void clientFailed(int round, String client, String reason) {
        log.add(round + " failed " + client + ": " + reason);
      }

      @Override
      public void stageEnded(int round, String stage, int reported, List<String> failures) {
        log.add(round + " " + stage + " ended: " + reported + " reported, " + failures);
      }
    };
  }

  @Test
  void run_twoRounds_tellsEachClientDuringItsStage() throws Exception {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    RoundListener listener = logTo(log);
    SimulationSettings settings = SimulationSettings.builder().clients(10).clientsPerRound(5)
        .rounds(2).localEpochs(1).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(1).out(dir.resolve("run")).build();

    Simulation.builder(settings).listener(listener).build().run();

    assertThat(log).startsWith("started 1", "1 fit over 5")
        .contains("1 fit ended: 5 reported, []", "ended 1", "started 2", "2 fit over 5",
            "2 fit ended: 5 reported, []", "ended 2");
    // Each fit client is told between its stage's start and end, once.
    for (int round = 1; round <= 2; round++) {
      List<String> fit = log.subList(log.indexOf(round + " fit over 5"),
          log.indexOf(round + " fit ended: 5 reported, []"));
      String told = round + " reported client ";
      assertThat(fit.stream().filter(l -> l.startsWith(told)).toList()).as("round %d", round)
          .hasSize(5).doesNotHaveDuplicates();
    }
    assertThat(log.indexOf("ended 1")).isLessThan(log.indexOf("started 2"));
    // Evaluation stages come between a round's fit and its end, each with its final count.
    List<String> round1 = log.subList(0, log.indexOf("ended 1"));
    assertThat(round1.stream().filter(l -> l.startsWith("1 evaluate")).toList())
        .allMatch(l -> l.contains(" over ") || l.contains(" ended: "));
  }

  @Test
  void run_clientsUpdateOverflows_tellsItsFailureWithTheReasonBeforeTheStageEnds()
      throws Exception {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    // A byzantine client scaling its update by 1e300 sends infinities, which the runtime refuses.
    SimulationSettings settings = SimulationSettings.builder().clients(6).clientsPerRound(4)
        .rounds(1).localEpochs(1).batchSize(16).learningRate(0.1).seed(3)
        .model(ModelKind.parse("mclr")).threads(2).byzantine(Byzantine.parse("1:scale:1e300"))
        .out(dir.resolve("run")).build();

    Simulation.builder(settings).listener(logTo(log)).build().run();

    int end = log.indexOf(log.stream().filter(l -> l.startsWith("1 fit ended: 3 reported, ["))
        .findFirst().orElseThrow());
    List<String> fit = log.subList(log.indexOf("1 fit over 4"), end);
    assertThat(fit.stream().filter(l -> l.startsWith("1 reported client ")).toList()).hasSize(3);
    assertThat(fit.stream().filter(l -> l.startsWith("1 failed client ")).toList())
        .singleElement().asString().contains("not finite");
  }

  @Test
  void run_listenerThrowsOnEachClient_endsBitIdenticalToARunWithoutIt() throws Exception {
    RoundListener hostile = new RoundListener() {
      @Override
      public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {}

      @Override
      public void clientReported(int round, String client) {
        throw new IllegalStateException("the page is broken");
      }
    };
    SimulationSettings.Builder settings = SimulationSettings.builder().clients(8)
        .clientsPerRound(6).rounds(2).localEpochs(1).batchSize(16).learningRate(0.1).seed(5)
        .model(ModelKind.parse("mclr")).threads(3);

    SimulationResult plain = Simulation.builder(settings.out(dir.resolve("plain")).build())
        .writeFiles().build().run();
    SimulationResult told = Simulation.builder(settings.out(dir.resolve("told")).build())
        .writeFiles().listener(hostile).build().run();

    assertThat(Files.readAllBytes(dir.resolve("told").resolve(RunFiles.FINAL)))
        .isEqualTo(Files.readAllBytes(dir.resolve("plain").resolve(RunFiles.FINAL)));
    assertThat(told.history().series(RoundRecord::trainLoss))
        .isEqualTo(plain.history().series(RoundRecord::trainLoss));
  }
}
