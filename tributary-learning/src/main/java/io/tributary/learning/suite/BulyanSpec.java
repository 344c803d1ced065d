package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.Bulyan;
import java.util.List;
import java.util.Map;

/** Bulyan (El Mhamdi et al. 2018): Krum picks, then a coordinate-wise trimmed median of them. */
public final class BulyanSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "bulyan";
  }

  @Override
  public String description() {
    return "Krum picks, then a trimmed median (El Mhamdi et al. 2018)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.whole("num_malicious_clients", 0, "[0, inf)",
        "the Byzantine clients f tolerated"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new Bulyan(h.get("num_malicious_clients").intValue()));
  }
}
