package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.runtime.Edges;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hierarchical FedAvg ({@code simulate --algorithm hierfavg --edges E --edge-rounds K2}) on Spark
 * {@code local[2]} gives the local run's {@code final.npz} and {@code metrics.jsonl} ({@code
 * seconds} blanked): the clients' aggregates to their edges are computed in the executors' passes,
 * with edges that follow the pass's reduction tree (each edge completed in one combined range)
 * and edges that do not (an edge's partials merged on the driver), and with DP noise at the edges.
 */
class SparkHierarchicalIdentityTest {
  private static final int ROUNDS = 3;
  @TempDir
  Path dir;

  private static SimulationSettings.Builder settings(int clientsPerRound, int edges,
      int edgeRounds) {
    return SimulationSettings.builder()
        .algorithm("hierfavg", Map.of("edges", (double) edges,
            "edge_rounds", (double) edgeRounds))
        .model(ModelKind.MLP).clients(12).clientsPerRound(clientsPerRound).rounds(ROUNDS)
        .localEpochs(1).threads(2).seed(7);
  }

  private Path run(String name, SimulationSettings.Builder settings) throws Exception {
    Path out = dir.resolve(name);
    Simulation.builder(settings.out(out).build()).writeFiles().build().run();
    return out;
  }

  private static Engine local2(int partitions) {
    return new Engine.Cluster("local[2]", Map.of(), partitions);
  }

  /**
   * 8 clients a round in 2 edges of 4 (nodes of level 2 of the pass's tree) and 9 in 3 edges of
   * 3 (no level's nodes): 3 tasks cut an edge either way.
   */
  @ParameterizedTest(name = "{0} clients a round, {1} edges, k2 = {2}")
  @CsvSource({"8, 2, 1", "8, 2, 2", "9, 3, 1", "9, 3, 2"})
  void hierfavgOnSparkLocalTwoCores_givesTheLocalRunsFiles(int perRound, int edges,
      int edgeRounds) throws Exception {
    assertThat(Edges.even(perRound, edges).followsReductionTree()).isEqualTo(perRound == 8);
    Path local = run("local", settings(perRound, edges, edgeRounds).engine(Engine.LOCAL));
    Path spark = run("spark", settings(perRound, edges, edgeRounds).engine(local2(3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    assertThat(Files.readString(spark.resolve("config.json")))
        .contains("\"algorithm\": \"hierfavg\"");
  }

  /** The engine's result does not depend on its cut: one task per client, and one in all. */
  @ParameterizedTest(name = "partitions {0}")
  @CsvSource({"1", "8"})
  void hierfavgTwoEdgeRoundsOnSparkLocalTwoCores_givesTheLocalRunsFilesWhateverThePartitions(
      int partitions) throws Exception {
    Path local = run("local", settings(8, 2, 2).engine(Engine.LOCAL));
    Path events = dir.resolve("events");
    Path spark = run("spark", settings(8, 2, 2).engine(new Engine.Cluster("local[2]",
        DriverTraffic.eventLogSettings(events), partitions)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    // In one JVM the executors combine each client pass (its edges follow the tree) into one
    // part, whatever the tasks; an evaluation pass seen before, whose parts are a few KB, sends
    // the driver its tasks' own parts (SparkPassEngine.SMALL_PASS_BYTES).
    List<DriverTraffic.Job> jobs = DriverTraffic.read(events);
    jobs.forEach(j -> System.out.println("local[2] p" + partitions + " " + j));
    assertThat(jobs).isNotEmpty().allSatisfy(j -> {
      if (j.bytes() > 100_000) {
        assertThat(j.tasks()).as("client pass %d", j.job()).isEqualTo(1);
      } else {
        assertThat(j.tasks()).isBetween(1, partitions);
        assertThat(j.bytes()).isLessThanOrEqualTo(SparkPassEngine.SMALL_PASS_BYTES);
      }
    });
    assertThat(jobs).filteredOn(j -> j.bytes() > 100_000).hasSize(2 * ROUNDS);
  }

  /**
   * DP with the noise at the edges (seeded, experiments only): the clients clip on the executors,
   * each edge's noise is drawn from its own stream; the bits, and the accounting, are the local
   * run's.
   */
  @Test
  void hierfavgWithDpAtTheEdgesOnSparkLocalTwoCores_givesTheLocalRunsFiles() throws Exception {
    for (int edgeRounds : new int[] {1, 2}) {
      SimulationSettings.Builder dp = settings(8, 2, edgeRounds).dp(DpSettings
          .builder(DpMode.CLIENT).noiseMultiplier(1).clip(1).insecureSeededNoise(true).build());
      dp.set(SettingsSchema.DP_AT, "edges");
      Path local = run("dp-local-" + edgeRounds, dp.engine(Engine.LOCAL));
      Path spark = run("dp-spark-" + edgeRounds, dp.engine(local2(3)));
      RunBits.assertSameBits(local, spark, ROUNDS);
      assertThat(RunBits.metricsWithoutClock(spark)).allMatch(line -> line.contains("epsilon"));
    }
  }
}
