package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.List;
import java.util.Map;

/**
 * FedProx (Li et al. 2020): FedAvg whose clients add a proximal term of weight {@code
 * proximal_mu} to their loss.
 */
public final class FedProxSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedprox";
  }

  @Override
  public String description() {
    return "FedAvg with a proximal term on the clients (Li et al. 2020)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("proximal_mu", 0.01, "[0, inf)",
        "the weight of the proximal term"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return new FederatedAlgorithm(name(), h.get("proximal_mu"), new WeightedMean(),
        new ServerSgd(1, 0));
  }
}
