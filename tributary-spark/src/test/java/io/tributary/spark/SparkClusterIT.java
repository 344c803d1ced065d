package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A 20-round FedAvg simulation (digits, MCLR, 10 clients a round) on a standalone loopback
 * cluster of two one-core workers gives the local run's {@code final.npz} and {@code
 * metrics.jsonl} ({@code seconds} blanked) whatever the partitions, and still does when a worker
 * dies during the run; so do hierarchical FedAvg runs through two edges; every process the
 * cluster started is gone afterwards.
 */
@Timeout(300)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterIT {
  private static final int ROUNDS = 20;
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path dir;
  private static LoopbackCluster cluster;
  private static final List<Long> started = new ArrayList<>();
  private static Path local;

  @BeforeAll
  static void startClusterAndRunLocally() throws Exception {
    cluster = LoopbackCluster.builder(LoopbackClusterTest.classpath(), dir.resolve("cluster"))
        .workers(2).coresPerWorker(1).workerMemory("768m")
        .startTimeout(Duration.ofSeconds(120)).start();
    started.addAll(cluster.pids());
    local = run("local", Engine.LOCAL, List.of());
  }

  @AfterAll
  static void stopClusterAndCheckEveryProcessIsGone() throws InterruptedException {
    List<ProcessHandle> processes = new ArrayList<>();
    started.forEach(p -> ProcessHandle.of(p).ifPresent(h -> {
      processes.add(h);
      h.descendants().forEach(processes::add);
    }));
    if (cluster != null) {
      cluster.close();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(processes.stream().filter(ProcessHandle::isAlive)
        .map(h -> h.pid() + " " + h.info().command().orElse("?")).toList())
        .as("processes the cluster started, alive after close").isEmpty();
  }

  private static SimulationSettings.Builder settings() {
    return SimulationSettings.builder().model(ModelKind.MCLR).clients(20).clientsPerRound(10)
        .rounds(ROUNDS).localEpochs(1).threads(2).seed(21);
  }

  private static Engine.Cluster onCluster(int partitions) {
    return new Engine.Cluster(cluster.masterUrl(), Map.of("spark.executor.memory", "512m",
        "spark.executor.cores", "1"), partitions);
  }

  private static Path run(String name, Engine engine, List<SimulationListener> listeners)
      throws Exception {
    Path out = dir.resolve(name);
    Simulation.Builder b = Simulation.builder(settings().engine(engine).out(out).build())
        .writeFiles();
    listeners.forEach(b::listener);
    b.build().run();
    return out;
  }

  @Test
  @Order(1)
  void twoWorkersTwoPartitions_giveTheLocalRunsFiles() throws Exception {
    RunBits.assertSameBits(local, run("cluster-p2", onCluster(2), List.of()), ROUNDS);
  }

  @ParameterizedTest(name = "partitions {0}")
  @ValueSource(ints = {1, 8})
  @Order(2)
  void twoWorkers_giveTheLocalRunsFilesWhateverThePartitions(int partitions) throws Exception {
    RunBits.assertSameBits(local, run("cluster-p" + partitions, onCluster(partitions),
        List.of()), ROUNDS);
  }

  /**
   * Hierarchical FedAvg, 8 clients a round in 2 edges of 4 (nodes of the pass's tree), with k2 = 1
   * and 2 edge rounds a cloud round, and DP with the noise at the edges: the local run's files;
   * with the executors combining each pass into 2 parts, each client pass's result stage is one
   * task per edge (each edge's clients one partition of the second stage, its aggregate completed
   * on an executor), so the driver receives one partial per edge and pass, whatever the tasks.
   */
  @ParameterizedTest(name = "k2 = {0}, dp at the edges {1}")
  @CsvSource({"1, false", "2, false", "2, true"})
  @Order(3)
  void hierfavgOnTwoWorkers_givesTheLocalRunsFilesWithOneResultPerEdge(int edgeRounds,
      boolean dp) throws Exception {
    String name = "hierfavg-k" + edgeRounds + (dp ? "-dp" : "");
    Path localRun = runHierarchical(name + "-local", Engine.LOCAL, edgeRounds, dp);
    Path events = dir.resolve(name + "-events");
    Map<String, String> conf = new java.util.HashMap<>(DriverTraffic.eventLogSettings(events));
    conf.putAll(onCluster(3).settings());
    // Two combined parts from the first pass on (by default the executors registered at the
    // pass, which may be one at the first).
    conf.put(SparkSettings.COMBINED_PARTS, "2");
    Path clusterRun = runHierarchical(name + "-cluster", new Engine.Cluster(cluster.masterUrl(),
        conf, 3), edgeRounds, dp);
    RunBits.assertSameBits(localRun, clusterRun, HIERARCHICAL_ROUNDS);
    List<DriverTraffic.Job> jobs = DriverTraffic.read(events);
    jobs.forEach(j -> System.out.println(name + " " + j));
    assertThat(jobs).allSatisfy(j -> assertThat(j.tasks()).isBetween(1, 2));
    // The k2 client passes of each cloud round are its largest jobs: two results of at least
    // one MCLR model each (650 float32 parameters), one per edge; an evaluation's are about
    // 2 KB, Spark's own envelope.
    List<DriverTraffic.Job> fit = jobs.stream()
        .sorted(java.util.Comparator.comparingLong(DriverTraffic.Job::bytes).reversed())
        .limit((long) edgeRounds * HIERARCHICAL_ROUNDS).toList();
    assertThat(fit).allSatisfy(j -> assertThat(j.resultBytes()).hasSize(2)
        .allSatisfy(b -> assertThat(b).isGreaterThan(650 * 4)));
  }

  private static final int HIERARCHICAL_ROUNDS = 4;

  private static Path runHierarchical(String name, Engine engine, int edgeRounds, boolean dp)
      throws Exception {
    SimulationSettings.Builder b = SimulationSettings.builder()
        .algorithm("hierfavg", Map.of("edges", 2.0,
            "edge_rounds", (double) edgeRounds))
        .model(ModelKind.MCLR).clients(20).clientsPerRound(8).rounds(HIERARCHICAL_ROUNDS)
        .localEpochs(1).threads(2).seed(21).engine(engine).out(dir.resolve(name));
    if (dp) {
      b.dp(io.tributary.privacy.aggregation.DpSettings.builder(
          io.tributary.privacy.aggregation.DpMode.CLIENT).noiseMultiplier(1).clip(1)
          .insecureSeededNoise(true).build());
      b.set(io.tributary.simulation.SettingsSchema.DP_AT, "edges");
    }
    Simulation.builder(b.build()).writeFiles().build().run();
    return dir.resolve(name);
  }

  @Test
  @Order(4)
  void aWorkerKilledDuringTheRun_theRunCompletesWithTheLocalRunsFiles() throws Exception {
    // Killed from another thread 300 ms after round 5 ends, while the next rounds' passes run
    // (a round takes about a second here), as a machine that dies would: no orderly shutdown.
    Thread killer = Thread.ofPlatform().unstarted(() -> {
      try {
        Thread.sleep(300);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      cluster.killWorker(1);
    });
    SimulationListener afterRoundFive = new SimulationListener() {
      @Override
      public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters) {
        if (round.round() == 5) {
          killer.start();
        }
      }
    };
    Path killed = run("cluster-killed", onCluster(2), List.of(afterRoundFive));
    killer.join();
    RunBits.assertSameBits(local, killed, ROUNDS);
    assertThat(ProcessHandle.of(cluster.pids().get(2)).map(ProcessHandle::isAlive))
        .as("worker 1").isNotEqualTo(Optional.of(true));
  }
}
