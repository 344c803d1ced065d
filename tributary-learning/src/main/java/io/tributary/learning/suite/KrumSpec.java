package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.Krum;
import java.util.List;
import java.util.Map;

/** Krum (Blanchard et al. 2017): the update nearest its neighbours, or the mean of the m best. */
public final class KrumSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "krum";
  }

  @Override
  public String description() {
    return "the update nearest its neighbours (Blanchard et al. 2017)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.whole("num_malicious_clients", 0, "[0, inf)",
            "the Byzantine clients f tolerated"),
        Hyperparameter.whole("num_clients_to_keep", 0, "[0, inf)",
            "m, the best updates averaged; 0 for Krum itself"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new Krum(h.get("num_malicious_clients").intValue(),
        h.get("num_clients_to_keep").intValue()));
  }
}
