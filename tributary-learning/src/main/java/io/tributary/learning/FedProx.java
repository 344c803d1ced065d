package io.tributary.learning;

import io.tributary.graph.local.ClientUpdateConfig;
import io.tributary.graph.models.Model;

/**
 * FedProx (Li et al. 2020) as federated computations: FedAvg whose clients minimise their loss
 * plus the proximal term {@code (mu/2) ||w - w_global||^2}, which keeps local models near the
 * round's global model. With {@code mu = 0} it is FedAvg.
 */
public final class FedProx {
  private FedProx() {}

  /**
   * The FedProx process for {@code model}.
   *
   * @param mu the proximal coefficient, {@code >= 0}
   * @see FedAvg#build
   */
  public static LearningProcess build(
      Model model, int epochs, int batchSize, double learningRate, double mu, long seed) {
    return FederatedLearning.build("fedprox", model,
        ClientUpdateConfig.fedProx(epochs, batchSize, learningRate, mu), seed);
  }
}
