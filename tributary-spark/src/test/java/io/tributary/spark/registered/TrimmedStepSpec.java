package io.tributary.spark.registered;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.TrimmedMean;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.List;
import java.util.Map;

/**
 * A user's algorithm registered on the class path, which Spark's workers rebuild by name from the
 * settings they receive: a trimmed mean applied with a server step.
 */
public final class TrimmedStepSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "trimmedstep";
  }

  @Override
  public String description() {
    return "a trimmed mean applied with a server step (a test's own algorithm)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("step", 0.5, "(0, 1]", "the server step size"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new TrimmedMean(0.1))
        .withServerOptimizer(new ServerSgd(h.get("step"), 0));
  }
}
