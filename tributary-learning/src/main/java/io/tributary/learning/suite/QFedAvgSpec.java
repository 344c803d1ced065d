package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.QFedAvg;
import java.util.List;
import java.util.Map;

/** q-FedAvg (Li et al. 2020): fair FedAvg, weighting each client by its loss to the power q. */
public final class QFedAvgSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "qfedavg";
  }

  @Override
  public String description() {
    return "fair FedAvg weighting clients by loss^q (Li et al. 2020)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("q_param", 0.2, "[0, inf)", "the fairness exponent q"),
        Hyperparameter.real("qffl_learning_rate", 0.1, "(0, inf)",
            "the clients' step size the updates are divided by"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new QFedAvg(h.get("q_param"), h.get("qffl_learning_rate")));
  }
}
