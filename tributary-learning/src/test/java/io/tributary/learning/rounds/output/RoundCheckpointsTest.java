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
