package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.Krum;
import java.util.List;
import java.util.Map;

/** Multi-Krum (Blanchard et al. 2017): the mean of the m updates Krum scores best. */
public final class MultiKrumSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "multikrum";
  }

  @Override
  public String description() {
    return "mean of the m best Krum updates (Blanchard et al. 2017)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.whole("num_malicious_clients", 0, "[0, inf)",
            "the Byzantine clients f tolerated"),
        Hyperparameter.whole("num_clients_to_keep", 1, "[1, inf)", "m, the best updates averaged"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new Krum(h.get("num_malicious_clients").intValue(),
        h.get("num_clients_to_keep").intValue()));
  }
}
