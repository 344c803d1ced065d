package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitialParametersTest {
  @TempDir Path dir;

  @Test
  void given_unorderedMap_tensorsSortedByName() {
    InitialParameters p = InitialParameters.given(
        Map.of("w", Tensor.scalar(1f), "b", Tensor.scalar(2f), "a", Tensor.scalar(3f)));
    assertThat(((InitialParameters.Given) p).tensors().keySet()).containsExactly("a", "b", "w");
  }

  @Test
  void given_linkedHashMap_keepsInsertionOrder() {
    Map<String, Tensor> m = new LinkedHashMap<>();
    m.put("w", Tensor.scalar(1f));
    m.put("b", Tensor.scalar(2f));
    InitialParameters p = InitialParameters.given(m);
    assertThat(((InitialParameters.Given) p).tensors().keySet()).containsExactly("w", "b");
  }

  @Test
  void given_noTensors_throws() {
    assertThatThrownBy(() -> InitialParameters.given(Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no tensors");
  }

  @Test
  void resume_runFilesOfThreeRounds_theLastRoundsModelAndOptimizerState() throws Exception {
    UpdaterState state = new UpdaterState(3, List.of("m"), List.of(List.of(Tensor.scalar(0.5f))));
    try (ServerRunFiles out = ServerRunFiles.builder(dir, 3).build()) {
      for (int r = 1; r <= 3; r++) {
        SequencedMap<String, Tensor> model = new LinkedHashMap<>();
        model.put("w", Tensor.scalar((float) r));
        out.roundEnded(RoundRecord.federated(r, 0.5, 0.5, 1, 10, 0, 1.0, 10, 20, List.of(), 0,
            new TreeMap<>()), model, r == 3 ? Optional.of(state) : Optional.empty());
      }
    }
    InitialParameters.Resumed p = InitialParameters.resume(dir);
    assertThat(p.afterRound()).isEqualTo(3);
    assertThat(p.roundsDone()).isEqualTo(3);
    assertThat(p.tensors()).containsExactly(Map.entry("w", Tensor.scalar(3f)));
    assertThat(p.updater()).contains(state);
    assertThat(p.previous()).extracting(RoundRecord::round).containsExactly(1, 2, 3);
  }

  @Test
  void resume_noModelZip_refusedSayingTheRunStoppedBeforeItsFirstCheckpoint() {
    assertThatThrownBy(() -> InitialParameters.resume(dir)).isInstanceOf(RunFileException.class)
        .hasMessage("has no checkpoint to resume from (no model.zip; the run stopped before its "
            + "first checkpoint: start it again)");
  }

  @Test
  void resume_tagOfRoundZero_refusedAsNotAServerRound() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("w", Tensor.scalar(1f));
    new RoundCheckpoints(dir.resolve("model.zip"), 3).write(0, model,
        TrainingConfig.of("", new LinkedHashMap<>()), null);
    assertThatThrownBy(() -> InitialParameters.resume(dir)).isInstanceOf(RunFileException.class)
        .hasMessage("model.zip tag round-0000 records round 0, not a round of a server run");
  }

  @Test
  void resume_folderWithoutAServerRunsCheckpoint_refused() throws Exception {
    SequencedMap<String, Tensor> model = new LinkedHashMap<>();
    model.put("w", Tensor.scalar(1f));
    new RoundCheckpoints(dir.resolve("model.zip"), 1).write(1, model,
        TrainingConfig.of("", new LinkedHashMap<>()), null);
    try (MetricsLog log = new MetricsLog(dir.resolve(MetricsLog.FILE))) {
      log.write(new RoundRecord(1, 0.5, 0.9, 0.5, 0.9, 0.4, 4, 100, 0, 1.0, 10, 10, List.of(), 0,
          new TreeMap<>()));
    }
    assertThatThrownBy(() -> InitialParameters.resume(dir)).isInstanceOf(RunFileException.class)
        .hasMessageContaining("records no run identity");
  }
}
