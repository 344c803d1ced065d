package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.List;
import java.util.Map;

/** FedAvgM (Hsu et al. 2019): FedAvg whose server applies the mean update with momentum. */
public final class FedAvgMSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedavgm";
  }

  @Override
  public String description() {
    return "FedAvg with server momentum (Hsu et al. 2019)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(
        Hyperparameter.real("server_learning_rate", 1, "(0, inf)", "the server step size"),
        Hyperparameter.real("server_momentum", 0, "[0, 1)", "the server momentum"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new ServerSgd(h.get("server_learning_rate"),
        h.get("server_momentum")));
  }
}
