package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer.Kind;
import java.util.List;
import java.util.Map;

/** FedYogi (Reddi et al. 2021): the mean update applied by the server's adaptive optimizer, with Flower's defaults. */
public final class FedYogiSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedyogi";
  }

  @Override
  public String description() {
    return "server Yogi on the mean update (Reddi et al. 2021)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(
        Hyperparameter.real("eta", 0.01, "(0, inf)", "the server step size"),
        Hyperparameter.real("beta_1", 0.9, "[0, 1)", "the first moment's decay"),
        Hyperparameter.real("beta_2", 0.99, "[0, 1)", "the second moment's decay"),
        Hyperparameter.real("tau", 1e-3, "(0, inf)", "the adaptivity"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new AdaptiveServerOptimizer(Kind.YOGI,
        h.get("eta"), h.get("beta_1"), h.get("beta_2"), h.get("tau")));
  }
}
