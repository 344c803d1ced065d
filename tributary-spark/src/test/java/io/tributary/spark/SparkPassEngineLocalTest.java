package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.graph.models.Model;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SettingsCodec;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.Invocation;
import io.tributary.simulation.internal.RunParts;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine on Spark's local mode ({@code local[2]}, one SparkContext for the class): a pass's
 * job runs on the executor threads, and its failures come back as one line.
 */
class SparkPassEngineLocalTest {
  private static JavaSparkContext spark;

  @BeforeAll
  static void startSpark() {
    spark = new JavaSparkContext(SparkSettings.of(new Engine.Cluster("local[2]", Map.of(), 0))
        .spark());
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static SimulationSettings digits() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(6).clientsPerRound(4)
        .rounds(1).threads(1).build();
  }

  static PassRequest fitRequest(SimulationSettings settings) throws Exception {
    RunParts.Call call = fitCall(settings);
    return new PassRequest(call.computation(), call.arguments(), 0, 4, 4, new byte[0]);
  }

  /** Round 1's {@code next} from the simulation's real initial state. */
  static RunParts.Call fitCall(SimulationSettings settings) throws Exception {
    SimulationData data = SimulationData.load(settings);
    Model model = settings.model().build(data.name(), data.exampleShape(), data.numClasses());
    RunParts parts = new RunParts(settings, data, model);
    StructValue state;
    try (ExecutionContext ctx = ExecutionContext.create(parts.options())) {
      state = (StructValue) ctx.invoke(parts.process().initialize());
    }
    return parts.call(new Invocation(Invocation.Kind.FIT, 1), state);
  }

  @Test
  void partitions_defaultToSparksParallelism() {
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(digits()),
        () -> null, 0);
    assertThat(engine.partitions()).isEqualTo(2);
    assertThat(new SparkPassEngine(spark, SettingsCodec.encode(digits()), () -> null, 3)
        .partitions()).isEqualTo(3);
  }

  @Test
  void aPassOutsideAnInvocation_isRefused() throws Exception {
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(digits()),
        () -> null, 2);
    assertThatThrownBy(() -> engine.run(fitRequest(digits())))
        .isInstanceOf(PassEngineException.class).hasMessageContaining("outside");
  }

  @Test
  void aWorkerThatCannotLoadTheData_failsThePassWithOneLine(@TempDir Path empty)
      throws Exception {
    SimulationSettings missing = SimulationSettings.builder()
        .dataset(new DatasetSpec.FashionMnist()).dataDir(empty.resolve("nowhere"))
        .model(ModelKind.MCLR).clients(6).clientsPerRound(4).rounds(1).threads(1).build();
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(missing),
        () -> new Invocation(Invocation.Kind.FIT, 1), 2);
    assertThatThrownBy(() -> engine.run(fitRequest(digits())))
        .isInstanceOf(PassEngineException.class)
        .hasMessageStartingWith("the Spark job of pass 0 (next, round 1) failed: ")
        .hasMessageContaining("the worker cannot load the clients' data (fashion-mnist)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  /**
   * Each executor rebuilds the simulation and computes its groups of the pass; every part is the
   * one a local replay of the same range computes, byte for byte, and together they cover the
   * pass.
   */
  @Test
  void aPass_partsEqualLocalReplaysOfTheSameGroups() throws Exception {
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(digits()),
        () -> new Invocation(Invocation.Kind.FIT, 1), 3);
    PassRequest request = fitRequest(digits());
    List<PassPart> parts = engine.run(request);
    assertThat(parts).hasSize(3);
    assertThat(parts.getFirst().fromGroup()).isZero();
    assertThat(parts.getLast().toGroup()).isEqualTo(request.groups());
    RunParts.Call call = fitCall(digits());
    try (ExecutionContext local = ExecutionContext.create(RuntimeOptions.defaults()
        .withThreads(1).withSeed(digits().seed()).withMinSuccessFraction(Double.MIN_VALUE)
        .withMaxWeight(io.tributary.learning.FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
            RuntimeOptions.WeightPolicy.CLIP))) {
      for (int i = 0; i < parts.size(); i++) {
        PassPart p = parts.get(i);
        if (i > 0) {
          assertThat(p.fromGroup()).isEqualTo(parts.get(i - 1).toGroup());
        }
        PassPart mine = local.computePassPart(call.computation(), call.arguments(), 0,
            new byte[0], p.fromGroup(), p.toGroup());
        assertThat(p.payload()).as("groups [%d, %d)", p.fromGroup(), p.toGroup())
            .isEqualTo(mine.payload());
      }
    }
  }
}
