package io.tributary.learning;

import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.models.Model;

/**
 * Federated Averaging (McMahan et al. 2017) as federated computations: each round the server
 * model is broadcast, every participating client runs {@code epochs} of SGD on its data, and the
 * server adds the example-weighted mean of the clients' model deltas.
 */
public final class FedAvg {
  private FedAvg() {}

  /**
   * The FedAvg process for {@code model}.
   *
   * @param epochs local epochs per round (E)
   * @param batchSize local batch size (B); 0 keeps the clients' batches as given
   * @param learningRate client SGD step size
   * @param seed seeds the initial model
   */
  public static LearningProcess build(
      Model model, int epochs, int batchSize, double learningRate, long seed) {
    return FederatedLearning.build("fedavg", model,
        ClientUpdateConfig.fedAvg(epochs, batchSize, learningRate), seed);
  }
}
