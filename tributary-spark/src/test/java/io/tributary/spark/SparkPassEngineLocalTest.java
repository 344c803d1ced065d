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
    int clients = settings.clientsPerRound();
    // The runtime's groups: clients / 256 clients each (at least 1), the last one shorter.
    int size = Math.max(1, clients / 256);
    return new PassRequest(call.computation(), call.arguments(), 0, clients,
        (clients + size - 1) / size, new byte[0]);
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

  /** 512 clients of a generated population: 256 groups, enough to cut into many tasks. */
  private static SimulationSettings population() {
    return SimulationSettings.builder().dataset(new DatasetSpec.Generated(60, 10, 4))
        .model(ModelKind.MCLR).clients(512).clientsPerRound(512).rounds(1).threads(1).build();
  }

  private static RuntimeOptions workerOptions(SimulationSettings settings) {
    return RuntimeOptions.defaults().withThreads(1).withSeed(settings.seed())
        .withMinSuccessFraction(Double.MIN_VALUE)
        .withMaxWeight(io.tributary.learning.FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
            RuntimeOptions.WeightPolicy.CLIP);
  }

  /**
   * The executors combine the tasks' parts into one part per combined range, so the driver
   * receives the same parts, the same bytes, however many tasks computed them; without the
   * second stage (a part per task) the bytes grow with the tasks.
   */
  @Test
  void driverBytes_combinedOnExecutors_independentOfTheTasks() throws Exception {
    SimulationSettings settings = population();
    PassRequest request = fitRequest(settings);
    assertThat(request.groups()).isEqualTo(256);
    List<PassPart> first = null;
    long bytes = -1;
    for (int tasks : new int[] {2, 4, 16, 64}) {
      SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(settings),
          () -> new Invocation(Invocation.Kind.FIT, 1), tasks, 2);
      List<PassPart> parts = engine.run(request);
      SparkPassEngine.PassTraffic traffic = engine.lastTraffic().orElseThrow();
      assertThat(traffic.tasks()).isEqualTo(tasks);
      assertThat(traffic.parts()).isEqualTo(2);
      assertThat(parts).extracting(PassPart::fromGroup, PassPart::toGroup).containsExactly(
          org.assertj.core.groups.Tuple.tuple(0L, 128L),
          org.assertj.core.groups.Tuple.tuple(128L, 256L));
      if (first == null) {
        first = parts;
        bytes = traffic.driverBytes();
      } else {
        assertThat(traffic.driverBytes()).as("%d tasks", tasks).isEqualTo(bytes);
        for (int i = 0; i < parts.size(); i++) {
          assertThat(parts.get(i).payload()).isEqualTo(first.get(i).payload());
        }
      }
    }
    // Each combined part is what one worker computing its whole range returns.
    RunParts.Call call = fitCall(settings);
    try (ExecutionContext local = ExecutionContext.create(workerOptions(settings))) {
      for (PassPart p : first) {
        assertThat(p.payload()).isEqualTo(local.computePassPart(call.computation(),
            call.arguments(), 0, new byte[0], p.fromGroup(), p.toGroup()).payload());
      }
    }
    // One part per task, as before the second stage: the driver's bytes grow with the tasks.
    SparkPassEngine perTask = new SparkPassEngine(spark, SettingsCodec.encode(settings),
        () -> new Invocation(Invocation.Kind.FIT, 1), 64, 64);
    perTask.run(request);
    assertThat(perTask.lastTraffic().orElseThrow().parts()).isEqualTo(64);
    assertThat(perTask.lastTraffic().orElseThrow().driverBytes()).isGreaterThan(8 * bytes);
  }

  /**
   * A pass whose parts were small the last time it ran skips the second stage: the driver then
   * receives the tasks' own parts, each the one a local replay of its range computes, together
   * covering the pass. A pass not seen before, a bound below its parts, or combined parts set keep
   * the second stage.
   */
  @Test
  void run_smallPassSeenBefore_skipsTheSecondStage() throws Exception {
    SimulationSettings settings = population();
    PassRequest request = fitRequest(settings);
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(settings),
        () -> new Invocation(Invocation.Kind.FIT, 1), 4);
    engine.run(request);
    assertThat(engine.lastTraffic().orElseThrow().parts()).as("first run").isEqualTo(1);
    List<PassPart> parts = engine.run(request);
    SparkPassEngine.PassTraffic traffic = engine.lastTraffic().orElseThrow();
    assertThat(traffic.tasks()).isEqualTo(4);
    assertThat(traffic.parts()).as("second run").isEqualTo(4);
    assertThat(traffic.driverBytes()).isPositive()
        .isLessThanOrEqualTo(SparkPassEngine.SMALL_PASS_BYTES);
    assertPartsAreLocalReplays(settings, request, parts);
    SparkPassEngine bounded = new SparkPassEngine(spark, SettingsCodec.encode(settings),
        () -> new Invocation(Invocation.Kind.FIT, 1), 4, 0, 1);
    SparkPassEngine set = new SparkPassEngine(spark, SettingsCodec.encode(settings),
        () -> new Invocation(Invocation.Kind.FIT, 1), 4, 1);
    for (SparkPassEngine combined : List.of(bounded, set)) {
      combined.run(request);
      combined.run(request);
      assertThat(combined.lastTraffic().orElseThrow().parts()).isEqualTo(1);
    }
  }

  /**
   * Each executor rebuilds the simulation and computes its groups of the pass; every part is the
   * one a local replay of the same range computes, byte for byte, and together they cover the
   * pass.
   */
  @Test
  void aPass_partsEqualLocalReplaysOfTheSameGroups() throws Exception {
    SparkPassEngine engine = new SparkPassEngine(spark, SettingsCodec.encode(digits()),
        () -> new Invocation(Invocation.Kind.FIT, 1), 4, 4);
    PassRequest request = fitRequest(digits());
    List<PassPart> parts = engine.run(request);
    assertThat(parts).hasSize(4);
    assertPartsAreLocalReplays(digits(), request, parts);
  }

  /**
   * The parts cover the pass's groups one after another, each the bytes a local replay of its
   * range computes.
   */
  private static void assertPartsAreLocalReplays(SimulationSettings settings,
      PassRequest request, List<PassPart> parts) throws Exception {
    assertThat(parts.getFirst().fromGroup()).isZero();
    assertThat(parts.getLast().toGroup()).isEqualTo(request.groups());
    RunParts.Call call = fitCall(settings);
    try (ExecutionContext local = ExecutionContext.create(workerOptions(settings))) {
      for (int i = 0; i < parts.size(); i++) {
        PassPart p = parts.get(i);
        if (i > 0) {
          assertThat(p.fromGroup()).isEqualTo(parts.get(i - 1).toGroup());
        }
        assertThat(p.payload()).as("groups [%d, %d)", p.fromGroup(), p.toGroup())
            .isEqualTo(local.computePassPart(call.computation(), call.arguments(), 0,
                new byte[0], p.fromGroup(), p.toGroup()).payload());
      }
    }
  }
}
