package io.tributary.simulation.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.format.ModelFile;
import io.tributary.graph.local.ClientOptimizer;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.simulation.Algorithm;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointListenerTest {
  @TempDir Path dir;

  private final Model model = Models.mclr();

  private SimulationSettings config(int rounds) {
    return new SimulationSettings(Algorithm.FEDAVG, DatasetSpec.parse("digits"), null, "iid",
        ModelKind.MCLR, 4, 2, rounds, 1, 16, 0.1, 0, 3, 1, 10, dir.resolve("run"),
        ClientOptimizer.sgd());
  }

  @Test
  void save_threeRounds_closeLeavesEveryTagInRoundOrder() throws IOException {
    Path file = dir.resolve("model.zip");
    Map<String, Tensor> first = model.initialParameters(1);
    Map<String, Tensor> second = model.initialParameters(2);
    Map<String, Tensor> third = model.initialParameters(3);

    try (CheckpointListener checkpoints = new CheckpointListener(file, model, config(30))) {
      checkpoints.save(10, first);
      checkpoints.save(20, second);
      checkpoints.save(30, third);
    }

    try (ModelFile zip = ModelFile.open(file)) {
      assertThat(zip.tags()).containsExactly("round-0010", "round-0020", "round-0030");
      assertThat(zip.tag("round-0010").parameters()).isEqualTo(first);
      assertThat(zip.tag("round-0020").parameters()).isEqualTo(second);
      assertThat(zip.tag("round-0030").parameters()).isEqualTo(third);
      assertThat(zip.tag("round-0020").trainingConfig().round()).isEqualTo(20);
    }
  }

  @Test
  void awaitWritten_afterSave_fileIsOnDiskBeforeItReturns() throws IOException {
    Path file = dir.resolve("model.zip");
    try (CheckpointListener checkpoints = new CheckpointListener(file, model, config(10))) {
      checkpoints.save(10, model.initialParameters(1));
      checkpoints.awaitWritten();

      try (ModelFile zip = ModelFile.open(file)) {
        assertThat(zip.tags()).containsExactly("round-0010");
      }
    }
  }

  @Test
  void close_writeFailed_throwsTheWritersIoException() throws IOException {
    Path notAFolder = Files.writeString(dir.resolve("plain-file"), "x");
    CheckpointListener checkpoints = new CheckpointListener(notAFolder.resolve("model.zip"), model, config(10));
    checkpoints.save(10, model.initialParameters(1));

    assertThatThrownBy(checkpoints::close).isInstanceOf(IOException.class);
  }

  @Test
  void save_previousWriteFailed_throwsBeforeStartingAnother() throws IOException {
    Path notAFolder = Files.writeString(dir.resolve("plain-file"), "x");
    try (CheckpointListener checkpoints =
        new CheckpointListener(notAFolder.resolve("model.zip"), model, config(20))) {
      checkpoints.save(10, model.initialParameters(1));

      assertThatThrownBy(() -> checkpoints.save(20, model.initialParameters(2)))
          .isInstanceOf(IOException.class);
      // The failure was reported once; nothing is left in flight.
      checkpoints.awaitWritten();
    }
  }
}
