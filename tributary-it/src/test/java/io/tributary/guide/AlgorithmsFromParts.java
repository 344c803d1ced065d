package io.tributary.guide;

import io.tributary.graph.models.Models;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.aggregation.ClientUpdates;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.aggregation.WholeRoundAggregator;
import io.tributary.learning.graph.GraphLearning;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationResult;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/** FedAdam from its three parts and by name, and an aggregator of one's own, on the digits. */
public final class AlgorithmsFromParts {
  private AlgorithmsFromParts() {}

  /** The example-weighted mean of the updates whose L2 norm is at most bound x the median's. */
  record NormFilteredMean(double bound) implements WholeRoundAggregator {
    @Override
    public String name() {
      return "norm_filtered_mean";
    }

    @Override
    public List<Tensor> aggregate(ClientUpdates updates) {
      double[] norms = new double[updates.size()];
      for (int c = 0; c < updates.size(); c++) {
        for (Tensor layer : updates.client(c)) {
          for (double v : TensorMath.toDoubles(layer)) {
            norms[c] += v * v;
          }
        }
      }
      double[] sorted = norms.clone();
      Arrays.sort(sorted);
      double limit = bound * bound * sorted[sorted.length / 2];  // squared norms
      int[] keep = IntStream.range(0, norms.length).filter(c -> norms[c] <= limit).toArray();
      return WeightedMean.of(updates.select(keep));
    }
  }

  public static void main(String[] args) throws Exception {
    // FedAdam from its parts: client work (plain local SGD), weighted mean, server Adam.
    FederatedAlgorithm fromParts = new FederatedAlgorithm("fedadam", 0, new WeightedMean(),
        new AdaptiveServerOptimizer(AdaptiveServerOptimizer.Kind.ADAM, 0.01, 0.9, 0.99, 1e-3));
    // The same algorithm by Flower's name and hyperparameter names.
    FederatedAlgorithm byName = FederatedAlgorithm.named("fedadam",
        Map.of("eta", 0.01, "tau", 1e-3));
    // FedAvg with the aggregator above in place of the weighted mean.
    FederatedAlgorithm filtered = FederatedAlgorithm.named("fedavg")
        .withAggregator(new NormFilteredMean(2)).withName("fedavg_norm_filtered");

    System.out.println("server state: "
        + GraphLearning.build(fromParts, Models.mclr(), 1, 10, 0.1, 0).initialize().type());
    SimulationResult a = run(fromParts);
    SimulationResult b = run(byName);
    SimulationResult c = run(filtered);
    System.out.println("parts and name agree bit for bit: "
        + a.finalParameters().equals(b.finalParameters()));
    for (SimulationResult r : List.of(a, c)) {
      System.out.printf(Locale.ROOT, "%s: test accuracy %.3f after %d rounds%n",
          r.settings().algorithm().name(), r.history().last().testAccuracy(),
          r.history().rounds().size());
    }
  }

  private static SimulationResult run(FederatedAlgorithm algorithm) throws Exception {
    SimulationSettings settings = SimulationSettings.builder()
        .algorithm(algorithm).rounds(10).seed(3).build();
    return Simulation.builder(settings).build().run();
  }
}
