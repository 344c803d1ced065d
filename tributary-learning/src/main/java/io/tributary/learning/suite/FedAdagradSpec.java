package io.tributary.learning.suite;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer.Kind;
import java.util.List;
import java.util.Map;

/** FedAdagrad (Reddi et al. 2021): the mean update applied by the server's adaptive optimizer, with Flower's defaults. */
public final class FedAdagradSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "fedadagrad";
  }

  @Override
  public String description() {
    return "server Adagrad on the mean update (Reddi et al. 2021)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(
        Hyperparameter.real("eta", 0.1, "(0, inf)", "the server step size"),
        Hyperparameter.real("tau", 1e-9, "(0, inf)", "the adaptivity"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new AdaptiveServerOptimizer(Kind.ADAGRAD,
        h.get("eta"), 0, 0, h.get("tau")));
  }
}
