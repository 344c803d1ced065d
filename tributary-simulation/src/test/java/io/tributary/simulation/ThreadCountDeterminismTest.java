package io.tributary.simulation;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 2 (the local part): one seed's simulation writes the same {@code final.npz} and
 * {@code metrics.jsonl}, byte for byte, with 1, 2 and 8 worker threads.
 *
 * <p>The runtime cuts a pass's clients into groups ({@code ClientPass.groupSize}: below 512
 * clients each client is a group of its own, from 512 on groups hold several) and combines the
 * groups' partial sums by a fixed reduction tree, so the thread count must change no bit. One run
 * here has 10 clients per round (one client per group), the other 600 per round (groups of two
 * clients, 300 groups), so both the tree over single clients and the fold inside a group are
 * covered.
 *
 * <p>What this can and cannot catch: the models are float32 and the runtime sums float32 values
 * in double before rounding back, so a different order of additions seldom moves a float32 bit
 * (making groups of four instead of two with 8 threads went unnoticed here, and the FedProx
 * protocol's 200 rounds gave the same bytes before and after the reduction tree). This test
 * guards the whole run (sampling, seeds, data, client work, evaluation, files) against anything
 * that depends on the thread count; {@code DeterminismTest} in tributary-runtime, whose values
 * cancel on purpose, is the one that sees a change of summation order.
 *
 * <p>The only field left out of {@code metrics.jsonl} is {@code seconds}, each round's wall-clock
 * time; every other field of every line must match.
 */
class ThreadCountDeterminismTest {
  private static final int[] THREADS = {1, 2, 8};

  @TempDir Path dir;

  /** Synthetic(1,1), the FedProx paper's data: 24 devices, 10 per round, 4 rounds of FedProx. */
  @Test
  void syntheticTenClientsPerRound_oneTwoEightThreads_byteIdenticalFinalModelAndMetrics()
      throws Exception {
    SimulationSettings.Builder settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.named("fedprox")).mu(0.1).dataset(DatasetSpec.parse("synthetic:1,1"))
        .model(ModelKind.MCLR).clients(24).clientsPerRound(10).rounds(4).localEpochs(2)
        .batchSize(10).learningRate(0.01).seed(21);

    assertSameFilesWhateverTheThreads(settings, "synthetic", 4);
  }

  /**
   * Digits split iid over 600 clients, all 600 in each round (two or three examples each), so a
   * pass has 300 groups of two clients; 3 rounds of FedAvg on the small logistic model.
   */
  @Test
  void digitsSixHundredClientsPerRound_oneTwoEightThreads_byteIdenticalFinalModelAndMetrics()
      throws Exception {
    SimulationSettings.Builder settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.fedAvg()).dataset(DatasetSpec.parse("digits")).partition("iid")
        .model(ModelKind.MCLR).clients(600).clientsPerRound(600).rounds(3).localEpochs(1)
        .batchSize(4).learningRate(0.1).seed(21);

    assertSameFilesWhateverTheThreads(settings, "digits", 3);
  }

  /**
   * A generated population (clients' data made on demand, cohorts never held): 1,500 clients,
   * 700 per round, 2 rounds of FedAvg.
   */
  @Test
  void generatedSevenHundredClientsPerRound_oneTwoEightThreads_byteIdenticalFinalModelAndMetrics()
      throws Exception {
    SimulationSettings.Builder settings = SimulationSettings.builder()
        .algorithm(FederatedAlgorithm.fedAvg()).dataset(DatasetSpec.parse("generated:50,4,3"))
        .clients(1_500).clientsPerRound(700).rounds(2).localEpochs(1).batchSize(3)
        .learningRate(0.1).seed(21);

    assertSameFilesWhateverTheThreads(settings, "generated", 2);
  }

  private void assertSameFilesWhateverTheThreads(SimulationSettings.Builder settings,
      String name, int rounds) throws Exception {
    byte[] firstModel = null;
    List<String> firstMetrics = null;
    for (int threads : THREADS) {
      Path out = dir.resolve(name + "-threads" + threads);
      Simulation.builder(settings.threads(threads).out(out).build()).writeFiles().build().run();

      byte[] model = Files.readAllBytes(out.resolve(RunFiles.FINAL));
      List<String> metrics = withoutSeconds(out.resolve(RunFiles.METRICS));
      assertThat(metrics).as("rounds written with %d threads", threads).hasSize(rounds);
      if (firstModel == null) {
        firstModel = model;
        firstMetrics = metrics;
      } else {
        assertThat(model).as("final.npz with %d threads against 1", threads)
            .isEqualTo(firstModel);
        assertThat(metrics).as("metrics.jsonl with %d threads against 1", threads)
            .isEqualTo(firstMetrics);
      }
    }
  }

  /** The lines of a metrics log with the wall-clock {@code seconds} field taken out. */
  private static List<String> withoutSeconds(Path metrics) throws Exception {
    List<String> lines = Files.readAllLines(metrics);
    for (String line : lines) {
      assertThat(line).as("a round line with its seconds field").contains("\"seconds\": ");
    }
    return lines.stream().map(l -> l.replaceAll("\"seconds\": [^,}]+, ", "")).toList();
  }
}
