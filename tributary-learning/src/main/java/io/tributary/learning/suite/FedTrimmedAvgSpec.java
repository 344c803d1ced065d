package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.TrimmedMean;
import java.util.List;
import java.util.Map;

/** FedTrimmedAvg (Yin et al. 2018): the coordinate-wise mean after cutting a fraction from each end. */
public final class FedTrimmedAvgSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedtrimmedavg";
  }

  @Override
  public String description() {
    return "coordinate-wise trimmed mean (Yin et al. 2018)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("beta", 0.2, "[0, 0.5)",
        "the fraction cut from each end"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new TrimmedMean(h.get("beta")));
  }
}
