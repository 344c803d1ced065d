package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.CoordinateMedian;
import java.util.List;
import java.util.Map;

/** FedMedian (Yin et al. 2018): the coordinate-wise median of the updates. */
public final class FedMedianSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedmedian";
  }

  @Override
  public String description() {
    return "coordinate-wise median of the updates (Yin et al. 2018)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of();
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new CoordinateMedian());
  }
}
