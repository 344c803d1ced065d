package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassRequest;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.ClusterEngine;
import io.tributary.simulation.engine.EngineUnavailableException;
import io.tributary.simulation.engine.Invocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine on a real standalone cluster (a {@link LoopbackCluster}, one worker): a cluster
 * without the memory asked, and a pass whose tasks fail on every try, each stop with one line,
 * and the executors end with the application.
 */
@Timeout(300)
class SparkClusterEngineTest {
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path dir;
  private static LoopbackCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = LoopbackCluster.builder(LoopbackClusterTest.classpath(), dir).workers(1)
        .workerMemory("1g").startTimeout(Duration.ofSeconds(120)).start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  private static SimulationSettings settings() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(6).clientsPerRound(4)
        .rounds(1).threads(1).build();
  }

  @Test
  void aClusterWithoutTheMemoryAsked_failsToStartWithOneLine() {
    Engine.Cluster engine = new Engine.Cluster(cluster.masterUrl(), Map.of(
        "spark.executor.memory", "4g", SparkSettings.START_TIMEOUT, "10"), 0);
    assertThatThrownBy(() -> new SparkEngineProvider().start(engine, settings(), () -> null))
        .isInstanceOf(EngineUnavailableException.class)
        .hasMessageContaining("no executor started on " + cluster.masterUrl() + " within 10 s")
        .hasMessageContaining("spark.executor.memory=4g")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aPassFailingOnEveryTry_stopsWithOneLineAndTheExecutorsEnd() throws Exception {
    Engine.Cluster engine = new Engine.Cluster(cluster.masterUrl(), Map.of(
        "spark.executor.memory", "512m", "spark.task.maxFailures", "2"), 2);
    PassRequest request = SparkPassEngineLocalTest.fitRequest(settings());
    // The workers are told of a dataset they cannot load: every try of every task fails after
    // the executor tries to rebuild the simulation; Spark retries, then gives up.
    SimulationSettings missing = SimulationSettings.builder()
        .dataset(new io.tributary.simulation.DatasetSpec.FashionMnist())
        .dataDir(dir.resolve("nowhere")).model(ModelKind.MCLR).clients(6).clientsPerRound(4)
        .rounds(1).threads(1).build();
    try (ClusterEngine spark = new SparkEngineProvider().start(engine, missing,
        () -> new Invocation(Invocation.Kind.FIT, 1))) {
      assertThatThrownBy(() -> spark.run(request)).isInstanceOf(PassEngineException.class)
          .hasMessageStartingWith("the Spark job of pass 0 (next, round 1) failed: ")
          .hasMessageContaining("failed 2 times")
          .hasMessageContaining("cannot load the clients' data")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
    // None for 2 s in a row: a worker may start a replacement executor while the master is
    // still removing the application, and kill it a moment later.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    int quiet = 0;
    while (quiet < 10 && System.nanoTime() < deadline) {
      quiet = executors().isEmpty() ? quiet + 1 : 0;
      Thread.sleep(200);
    }
    assertThat(executors()).as("executors left after the application stopped").isEmpty();
  }

  private static java.util.List<String> executors() {
    return cluster.pids().stream().flatMap(p -> ProcessHandle.of(p).stream())
        .flatMap(ProcessHandle::descendants).filter(ProcessHandle::isAlive)
        .map(h -> h.pid() + " " + h.info().command().orElse("?")).toList();
  }
}
