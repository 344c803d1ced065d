package io.tributary.learning.rounds.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.format.ModelFile;
import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.Checkpoints;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one checkpoint listener, as the simulator and the servers use it. */
class CheckpointListenerTest {
  @TempDir Path dir;

  private static SequencedMap<String, Tensor> model(float v) {
    SequencedMap<String, Tensor> p = new LinkedHashMap<>();
    p.put("w", Tensor.ofFloats(Shape.of(2), v, v + 1));
    return p;
  }

  private static RoundRecord round(int r) {
    return RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
        new TreeMap<>());
  }

  private static Checkpoints every(int n) {
    SequencedMap<String, Double> h = new LinkedHashMap<>();
    h.put("mu", 0.25);
    return new Checkpoints(n, TrainingConfig.of("sgd", h).withProperties(
        new LinkedHashMap<>(Map.of("algorithm", "fedprox"))), Optional.empty());
  }

  private record Start(int firstRound, int lastRound, Checkpoints checkpoints)
      implements RunStart {
    @Override
    public List<RoundRecord> previous() {
      return List.of();
    }

    @Override
    public SequencedMap<String, String> settingsDisplay() {
      return new LinkedHashMap<>();
    }
  }

  private record End(Optional<SequencedMap<String, Tensor>> finalParameters)
      implements RunEnd {
    @Override
    public List<RoundRecord> rounds() {
      return List.of();
    }

    @Override
    public String outcome() {
      return "done";
    }
  }

  @Test
  void roundEnded_everyThreeOfSeven_checkpointsDueRoundsAndTheLast() throws IOException {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (CheckpointListener c = new CheckpointListener(file)) {
      c.started(new Start(1, 7, every(3)));
      for (int r = 1; r <= 7; r++) {
        c.roundEnded(round(r), model(r));
      }
      c.finished(new End(Optional.of(model(7))));
    }
    try (ModelFile zip = ModelFile.open(file)) {
      assertThat(zip.tags()).containsExactly("round-0003", "round-0006", "round-0007");
      assertThat(zip.tag("round-0006").parameters()).isEqualTo(model(6));
      assertThat(zip.newest().trainingConfig().hyperparameters()).containsEntry("mu", 0.25);
      assertThat(zip.newest().trainingConfig().properties())
          .containsEntry("algorithm", "fedprox");
    }
  }

  @Test
  void finished_stoppedOnRequestBetweenDueRounds_checkpointsTheLastRoundRun()
      throws IOException {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (CheckpointListener c = new CheckpointListener(file, 10, every(5))) {
      for (int r = 1; r <= 4; r++) {
        c.roundEnded(round(r), model(r));
      }
      c.finished(new End(Optional.of(model(4))));
    }
    try (ModelFile zip = ModelFile.open(file)) {
      assertThat(zip.tags()).containsExactly("round-0004");
    }
  }

  @Test
  void finished_stoppedByAFailure_addsNoCheckpoint() throws IOException {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (CheckpointListener c = new CheckpointListener(file, 10, every(5))) {
      c.roundEnded(round(1), model(1));
      c.finished(new End(Optional.empty()));
    }
    assertThat(file).doesNotExist();
  }

  @Test
  void roundEnded_serverStateWithOptimizerAndAggregator_checkpointHoldsBoth() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    StructValue state = StructValue.named("model", StructValue.named("w",
            Tensor.ofFloats(Shape.of(2), 1f, 2f)),
        "optimizer", StructValue.named("round", Tensor.ofLongs(Shape.scalar(), 4),
            "m", StructValue.named("w", Tensor.ofFloats(Shape.of(2), 0.5f, 0.25f))),
        "aggregator", StructValue.named("clip_norm", Tensor.scalar(0.75)));
    Optional<UpdaterState> updater = UpdaterState.of(state);
    assertThat(updater).isPresent();
    try (CheckpointListener c = new CheckpointListener(file, 1, every(1))) {
      c.roundEnded(round(1), model(1), updater);
    }

    RoundCheckpoints.Checkpoint back = RoundCheckpoints.readNewest(file, (tag, t) -> { });

    assertThat(back.parameters()).isEqualTo(model(1));
    assertThat(back.updater()).isEqualTo(updater);
  }

  @Test
  void roundEnded_dueRound_checkpointWithItsMetricsLineOnDiskWhenItReturns() throws IOException {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (CheckpointListener c = new CheckpointListener(file, 4, every(2))) {
      for (int r = 1; r <= 4; r++) {
        c.roundEnded(round(r), model(r));
        // Read while the listener is still open and before any other call: nothing is left to
        // a writer in the background.
        try (ModelFile zip = ModelFile.open(file)) {
          assertThat(zip.newest().name()).isEqualTo(c.tag(r - r % 2));
          assertThat(zip.newest().trainingConfig().properties())
              .containsEntry(RoundCheckpoints.METRICS_LINE,
                  MetricsLog.toJson(round(r - r % 2)));
        } catch (IOException e) {
          assertThat(r).as("only round 1 has no checkpoint yet").isEqualTo(1);
        }
      }
    }
  }

  @Test
  void save_folderCannotBeWritten_throwsAtOnce() throws IOException {
    Path notAFolder = Files.writeString(dir.resolve("plain-file"), "x");
    CheckpointListener c = new CheckpointListener(notAFolder.resolve("model.zip"), 20, every(10));

    assertThatThrownBy(() -> c.save(round(10), model(1), Optional.empty()))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> c.roundEnded(round(20), model(2)))
        .isInstanceOf(IOException.class);
  }

  @Test
  void roundEnded_beforeTheRunStarted_isRefusedNamingTheFile() {
    CheckpointListener c = new CheckpointListener(dir.resolve("model.zip"));

    assertThatThrownBy(() -> c.roundEnded(round(1), model(1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("model.zip");
  }
}
