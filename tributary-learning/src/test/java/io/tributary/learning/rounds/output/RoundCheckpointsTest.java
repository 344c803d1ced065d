package io.tributary.learning.rounds.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.format.ModelAppender;
import io.tributary.format.ModelFile;
import io.tributary.format.TagContents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoints written and read back with a server optimizer's and an aggregator's state. */
class RoundCheckpointsTest {
  @TempDir Path dir;

  private static SequencedMap<String, Tensor> parameters() {
    SequencedMap<String, Tensor> p = new LinkedHashMap<>();
    p.put("w", Tensor.ofFloats(Shape.of(2), 1f, 2f));
    return p;
  }

  private static StructValue serverState() {
    return StructValue.named("model", StructValue.named("w", Tensor.ofFloats(Shape.of(2), 1f, 2f)),
        "aggregator", StructValue.named("round", Tensor.ofLongs(Shape.scalar(), 3),
            "clip_norm", Tensor.scalar(0.1 + 0.2), "metrics", StructValue.named(
                "noise_stddev", Tensor.ofDoubles(Shape.of(2), -0.0, Double.NaN))));
  }

  @Test
  void readNewest_aggregatorStateWritten_givesTheSameTensorsBack() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    UpdaterState state = UpdaterState.of(serverState()).orElseThrow();
    new RoundCheckpoints(file, 10).write(3, parameters(), Optional.of(state),
        TrainingConfig.none(), null);

    RoundCheckpoints.Checkpoint c = RoundCheckpoints.readNewest(file, (tag, t) -> { });

    assertThat(c.updater()).contains(state);
    assertThat(c.updater().orElseThrow().slots()).isEmpty();
    assertThat(c.training().properties()).containsEntry("aggregator/round", "int64[] 3")
        .containsEntry("aggregator/clip_norm", "float64[] 0.30000000000000004")
        .containsEntry("aggregator/metrics/noise_stddev", "float64[2] -0.0 NaN");
  }

  @Test
  void readNewest_checkpointWithoutState_givesNoUpdaterState() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    new RoundCheckpoints(file, 10).write(1, parameters(), TrainingConfig.none(), null);

    assertThat(RoundCheckpoints.readNewest(file, (tag, t) -> { }).updater()).isEmpty();
  }

  private static SequencedMap<String, Tensor> parameters(float v) {
    SequencedMap<String, Tensor> p = new LinkedHashMap<>();
    p.put("w", Tensor.ofFloats(Shape.of(2), v, -v));
    return p;
  }

  @Test
  void write_earlierCheckpointDamaged_laterOnesWrittenWithoutReadingIt() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (RoundCheckpoints c = new RoundCheckpoints(file, 100)) {
      c.write(10, parameters(1), TrainingConfig.none(), null);
      c.write(20, parameters(2), TrainingConfig.none(), null);
      // A writer that re-read or re-checked the earlier checkpoints for each new one (its cost
      // growing with their number) fails from here on.
      damage(file, c.tag(10) + "/trainingConfig.fb");
      c.write(30, parameters(3), TrainingConfig.none(), null);
      c.write(40, parameters(4), TrainingConfig.none(), null);
    }
    // A resume still checks every checkpoint, and refuses the damaged one.
    assertThatThrownBy(() -> RoundCheckpoints.readNewest(file, (tag, t) -> { }))
        .isInstanceOf(IOException.class).hasMessageContaining("round-0010/trainingConfig.fb");
  }

  @Test
  void write_resumedRunInANewWriter_addsAfterTheEarlierCheckpoints() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (RoundCheckpoints c = new RoundCheckpoints(file, 30)) {
      c.write(10, parameters(1), TrainingConfig.none(), null);
      c.write(20, parameters(2), TrainingConfig.none(), null);
    }
    try (RoundCheckpoints c = new RoundCheckpoints(file, 30)) {
      c.write(30, parameters(3), TrainingConfig.none(), null);
    }
    RoundCheckpoints.Checkpoint newest = RoundCheckpoints.readNewest(file, (tag, t) -> { });
    assertThat(newest.round()).isEqualTo(30);
    assertThat(newest.parameters()).isEqualTo(parameters(3));
    try (ModelFile m = ModelFile.open(file)) {
      assertThat(m.tags()).containsExactly("round-0010", "round-0020", "round-0030");
      assertThat(m.tag("round-0020").parameters()).isEqualTo(parameters(2));
    }
  }

  @Test
  void readNewest_checkpointKilledMidWrite_givesTheOneBefore() throws Exception {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    try (RoundCheckpoints c = new RoundCheckpoints(file, 30)) {
      c.write(10, parameters(1), TrainingConfig.none(), null);
      c.write(20, parameters(2), TrainingConfig.none(), null);
    }
    ModelAppender a = ModelAppender.open(file);
    TagContents next = TagContents.builder().parameter("w", Tensor.ofFloats(Shape.of(2), 3f, 3f))
        .trainingConfig(TrainingConfig.none().withProgress(0, 0, 30)).build();
    assertThatThrownBy(() -> a.addTag("round-0030", next, (entry, bytes) -> {
      if (entry.endsWith("params/0.fb")) {
        throw new Killed();
      }
    })).isInstanceOf(Killed.class);
    a.close();

    RoundCheckpoints.Checkpoint newest = RoundCheckpoints.readNewest(file, (tag, t) -> { });

    assertThat(newest.round()).isEqualTo(20);
    assertThat(newest.parameters()).isEqualTo(parameters(2));
  }

  /** What a kill does to a writer: it stops, and nothing after runs. */
  private static final class Killed extends Error {
    Killed() {
      super("killed");
    }
  }

  /** Overwrites the first bytes of the stored data of {@code entry}, found by its local header. */
  private static void damage(Path file, String entry) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    byte[] name = entry.getBytes(StandardCharsets.UTF_8);
    int at = -1;
    for (int i = 30; i + name.length <= bytes.length && at < 0; i++) {
      if (java.util.Arrays.equals(bytes, i, i + name.length, name, 0, name.length)
          && ByteBuffer.wrap(bytes, i - 30, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() == 0x04034b50) {
        at = i;
      }
    }
    assertThat(at).isPositive();
    int extra = ByteBuffer.wrap(bytes, at - 2, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff;
    int data = at + name.length + extra;
    for (int k = 0; k < 4; k++) {
      bytes[data + k] ^= (byte) 0x5a;
    }
    Files.write(file, bytes);
  }

  @Test
  void applyTo_stateOfTheSameAggregator_restoresItsTensors() {
    StructValue fresh = StructValue.named("model", serverState().get(0), "aggregator",
        StructValue.named("round", Tensor.ofLongs(Shape.scalar(), 0), "clip_norm",
            Tensor.scalar(1.0), "metrics", StructValue.named("noise_stddev",
                Tensor.ofDoubles(Shape.of(2), 0, 0))));

    StructValue restored = UpdaterState.of(serverState()).orElseThrow().applyTo(fresh);

    assertThat(restored).isEqualTo(serverState());
  }

  @Test
  void applyTo_aggregatorStateOfAnotherDtype_isRefusedNamingTheTensor() {
    StructValue other = StructValue.named("model", serverState().get(0), "aggregator",
        StructValue.named("round", Tensor.ofLongs(Shape.scalar(), 0), "clip_norm",
            Tensor.scalar(1f), "metrics", StructValue.named("noise_stddev",
                Tensor.ofDoubles(Shape.of(2), 0, 0))));

    assertThatThrownBy(() -> UpdaterState.of(serverState()).orElseThrow().applyTo(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("aggregator state clip_norm is float64");
  }

  @Test
  void checkAggregator_algorithmWithoutAggregatorState_isRefused() {
    UpdaterState state = UpdaterState.of(serverState()).orElseThrow();

    assertThatThrownBy(() -> state.checkAggregator(Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the algorithm's aggregator keeps no state");
    assertThatThrownBy(() -> new UpdaterState(0, List.of(), List.of()).checkAggregator(
        Optional.of(StructType.named("round", TensorType.of(DType.INT64)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the checkpoint holds no state of the algorithm's aggregator");
  }

  @Test
  void checkAggregator_stateCheckpointsCannotHold_isLeftOutAndResumeRefused() {
    StructValue withText = StructValue.named("model", serverState().get(0), "aggregator",
        StructValue.named("note", Tensor.ofStrings(Shape.scalar(), "x")));

    UpdaterState state = UpdaterState.of(withText).orElseThrow();

    assertThat(state.aggregator()).isEmpty();
    assertThatThrownBy(() -> state.checkAggregator(Optional.of(
        StructType.named("note", TensorType.of(DType.STRING)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("which checkpoints cannot hold");
  }

  @Test
  void parse_textOfAnyFixedWidthTensor_givesTheSameTensor() {
    for (Tensor t : List.of(Tensor.ofInts(Shape.of(2, 1), -7, Integer.MAX_VALUE),
        Tensor.ofFloats(Shape.of(3), 0.1f, Float.NEGATIVE_INFINITY, Float.MIN_VALUE),
        Tensor.ofBooleans(Shape.of(2), true, false), Tensor.ofLongs(Shape.of(0)))) {
      assertThat(AggregatorText.parse(AggregatorText.format(t))).isEqualTo(t);
    }
    assertThatThrownBy(() -> AggregatorText.parse("float64[2] 1.0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 2 values");
  }
}
