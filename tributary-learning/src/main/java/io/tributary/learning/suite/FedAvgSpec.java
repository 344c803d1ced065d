package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import java.util.Map;

/** FedAvg (McMahan et al. 2017): the example-weighted mean of the updates added to the model. */
public final class FedAvgSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedavg";
  }

  @Override
  public String description() {
    return "example-weighted mean of the updates (McMahan et al. 2017)";
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> values) {
    return FederatedAlgorithm.fedAvg();
  }
}
