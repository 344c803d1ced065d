package io.tributary.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.ModelFile;
import io.tributary.learning.rounds.RoundListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulation's checkpoint of a round is on disk before the round's line of {@code
 * metrics.jsonl}, and a run killed between the two resumes with the line from the checkpoint.
 */
class CheckpointOrderTest {
  @TempDir Path dir;

  private static SimulationSettings.Builder small() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(5).clientsPerRound(3)
        .rounds(4).seed(3).threads(2).checkpointEvery(2);
  }

  @Test
  void writeFiles_roundReported_itsDueCheckpointIsOnDisk() throws Exception {
    Path run = dir.resolve("run");
    List<String> seen = new ArrayList<>();
    // Told after the run's files: what a reader of the folder sees once a round is reported.
    RoundListener watch = (round, parameters) -> {
      try (ModelFile m = ModelFile.open(run.resolve(RunFiles.MODEL))) {
        seen.add(round.round() + ": checkpoint " + m.newest().trainingConfig().round()
            + ", lines " + Files.readAllLines(run.resolve(RunFiles.METRICS)).size());
      } catch (IOException e) {
        seen.add(round.round() + ": no checkpoint");
      }
    };
    Simulation.builder(small().out(run).build()).writeFiles().listener(watch).build().run();

    assertThat(seen).containsExactly("1: no checkpoint", "2: checkpoint 2, lines 2",
        "3: checkpoint 2, lines 3", "4: checkpoint 4, lines 4");
  }

  @Test
  void resume_killedAfterACheckpointBeforeItsLine_resumesWithTheLineAndEndsAsUninterrupted()
      throws Exception {
    Path whole = dir.resolve("whole");
    SimulationResult uninterrupted = Simulation.builder(small().out(whole).build()).writeFiles()
        .build().run();
    Path run = dir.resolve("run");
    assertThatThrownBy(() -> Simulation.builder(small().out(run).build()).writeFiles()
        .listener(SimulationTest.stopAfter(2)).build().run()).hasMessage("stopped on purpose");
    // As a kill right after round 2's checkpoint leaves the log: round 2's line half-written.
    Path log = run.resolve(RunFiles.METRICS);
    List<String> written = Files.readAllLines(log);
    Files.writeString(log, written.getFirst() + "\n" + written.get(1).substring(0, 12));

    SimulationResult r = Simulation.builder(small().out(run).build()).writeFiles().resume()
        .build().run();

    assertThat(r.resumedAfter()).isEqualTo(2);
    List<String> lines = Files.readAllLines(log);
    assertThat(lines.subList(0, 2)).isEqualTo(written.subList(0, 2));
    assertThat(lines.stream().map(CheckpointOrderTest::withoutSeconds).toList()).isEqualTo(
        Files.readAllLines(whole.resolve(RunFiles.METRICS)).stream()
            .map(CheckpointOrderTest::withoutSeconds).toList());
    assertThat(r.finalParameters()).isEqualTo(uninterrupted.finalParameters());
  }

  /** A line without its wall-clock figure, which differs between two runs. */
  private static String withoutSeconds(String line) {
    return line.replaceAll("\"seconds\": [^,}]*", "");
  }
}
