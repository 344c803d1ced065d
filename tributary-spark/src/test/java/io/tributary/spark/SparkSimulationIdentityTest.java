package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.Engine;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise: a simulation on Spark gives the local run's bits ({@code final.npz} and
 * {@code metrics.jsonl} but for the wall-clock {@code seconds}), whatever the local threads, the
 * executors' cores and the partitions. One seed; each Spark run starts one SparkContext.
 */
class SparkSimulationIdentityTest {
  private static final int ROUNDS = 3;
  @TempDir
  static Path dir;
  /** The reference: the local engine on one thread. */
  private static Path reference;

  private static SimulationSettings.Builder settings() {
    return SimulationSettings.builder().model(ModelKind.MLP).clients(10).clientsPerRound(6)
        .rounds(ROUNDS).localEpochs(1).threads(2).seed(5);
  }

  private static Path run(String name, SimulationSettings.Builder settings) throws Exception {
    Path out = dir.resolve(name);
    Simulation.builder(settings.out(out).build()).writeFiles().build().run();
    return out;
  }

  @BeforeAll
  static void localOnOneThread() throws Exception {
    reference = run("local-1", settings().threads(1).engine(Engine.LOCAL));
  }

  @Test
  void localOnEightThreads_givesTheSameFiles() throws Exception {
    RunBits.assertSameBits(reference, run("local-8", settings().threads(8).engine(Engine.LOCAL)),
        ROUNDS);
  }

  @Test
  void sparkLocalOneCore_givesTheLocalRunsFiles() throws Exception {
    RunBits.assertSameBits(reference,
        run("spark-local1", settings().engine(new Engine.Cluster("local[1]", Map.of(), 2))),
        ROUNDS);
  }

  @ParameterizedTest(name = "partitions {0}")
  @ValueSource(ints = {1, 2, 3, 8})
  void sparkLocalTwoCores_givesTheLocalRunsFilesWhateverThePartitions(int partitions)
      throws Exception {
    RunBits.assertSameBits(reference, run("spark-local2-p" + partitions,
        settings().engine(new Engine.Cluster("local[2]", Map.of(), partitions))), ROUNDS);
  }

  /** A generated population: each task makes its clients' data from the seed on the worker. */
  @Test
  void generatedPopulationOnSparkLocalTwoCores_givesTheLocalRunsFiles() throws Exception {
    SimulationSettings.Builder generated = settings().model(ModelKind.MCLR)
        .dataset(DatasetSpec.parse("generated:30,4,2")).clients(5_000).clientsPerRound(600)
        .learningRate(0.2);
    Path local = run("generated-local", generated.engine(Engine.LOCAL));
    Path spark = run("generated-spark", generated
        .engine(new Engine.Cluster("local[2]", Map.of(), 3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
  }

  /**
   * Differential privacy with seeded noise (experiments only): the clients clip (and add local
   * noise, from a stream named by their update) on the workers, the driver adds the central
   * noise and adapts the clip; the bits are the local run's.
   */
  @Test
  void clientDpWithAdaptiveClipAndLocalNoiseOnSparkLocalTwoCores_givesTheLocalRunsFiles()
      throws Exception {
    SimulationSettings.Builder dp = settings().dp(new DpSettings(DpMode.CLIENT, 0.8, 0.5,
        Optional.of(new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(1))), 0.01, 1e-5, true));
    Path local = run("dp-local", dp.engine(Engine.LOCAL));
    Path spark = run("dp-spark", dp.engine(new Engine.Cluster("local[2]", Map.of(), 3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    assertThat(RunBits.metricsWithoutClock(spark)).allMatch(line -> line.contains("epsilon"));
  }

  @Test
  void fedmedianOnSparkLocalTwoCores_givesTheLocalRunsFiles() throws Exception {
    FederatedAlgorithm median = FederatedAlgorithm.named("fedmedian", Map.of());
    Path local = run("median-local", settings().algorithm(median).engine(Engine.LOCAL));
    Path spark = run("median-spark", settings().algorithm(median)
        .engine(new Engine.Cluster("local[2]", Map.of(), 3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    assertThat(RunBits.metricsWithoutClock(spark)).isNotEqualTo(
        RunBits.metricsWithoutClock(reference));
  }

  @Test
  void registeredAlgorithmOnSparkLocalTwoCores_givesTheLocalRunsFiles() throws Exception {
    // The workers know the algorithm only by the name and options config.json carries.
    FederatedAlgorithm mine = FederatedAlgorithm.named("trimmedstep", Map.of("step", 0.75));
    Path local = run("registered-local", settings().algorithm(mine).engine(Engine.LOCAL));
    Path spark = run("registered-spark", settings().algorithm(mine)
        .engine(new Engine.Cluster("local[2]", Map.of(), 3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    assertThat(java.nio.file.Files.readString(spark.resolve("config.json")))
        .contains("\"algorithm\": \"trimmedstep\"").contains("{\"step\": 0.75}");
  }

  /**
   * The user's CSV file and model file: every executor reads and indexes the CSV and reads the
   * model file itself, from the paths config.json records; nothing but the settings travels.
   */
  @Test
  void usersCsvAndModelFileOnSparkLocalTwoCores_givesTheLocalRunsFiles() throws Exception {
    StringBuilder rows = new StringBuilder("user,a,b,y,c\n");
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int k = 0; k < 8; k++) {
      for (int i = 0; i < 30; i++) {
        double a = r.nextGaussian();
        double b = r.nextGaussian();
        rows.append("u").append(k).append(',').append(a).append(',').append(b).append(',')
            .append(a > 0.2 ? 0 : b > 0 ? 1 : 2).append(',').append(r.nextGaussian())
            .append('\n');
      }
    }
    Path csv = dir.resolve("mine.csv");
    java.nio.file.Files.writeString(csv, rows);
    Path model = dir.resolve("mine.zip");
    io.tributary.graph.models.Model mine = io.tributary.graph.models.Models.mlp("mine", 3, 8, 3,
        io.tributary.tensor.DType.FLOAT32);
    io.tributary.simulation.UserModel.write(model, "start", mine, mine.initialParameters(3));
    SimulationSettings.Builder users = SimulationSettings.builder()
        .dataset(new DatasetSpec.Csv(csv).withColumns("user", "y", java.util.List.of()))
        .model(model).clientsPerRound(4).rounds(ROUNDS).localEpochs(1).threads(2).seed(5);
    Path local = run("users-local", users.engine(Engine.LOCAL));
    Path spark = run("users-spark", users.engine(new Engine.Cluster("local[2]", Map.of(), 3)));
    RunBits.assertSameBits(local, spark, ROUNDS);
    assertThat(java.nio.file.Files.readString(spark.resolve("config.json")))
        .contains("\"dataset\": \"csv:" + csv + "\"").contains("\"model_file\": \"" + model);
  }
}
