package io.tributary.cli.registered;

import io.tributary.learning.AlgorithmSpec;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.Hyperparameter;
import io.tributary.learning.aggregation.CoordinateMedian;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.List;
import java.util.Map;

/**
 * A user's algorithm as one class plus one registration line: the coordinate-wise median of the
 * updates, applied with a server step size {@code step}.
 */
public final class StepMedianSpec implements AlgorithmSpec {
  @Override
  public String name() {
    return "stepmedian";
  }

  @Override
  public String description() {
    return "the coordinate-wise median applied with a server step (a test's own algorithm)";
  }

  @Override
  public List<Hyperparameter> hyperparameters() {
    return List.of(Hyperparameter.real("step", 0.5, "(0, 1]", "the server step size"));
  }

  @Override
  public FederatedAlgorithm build(Map<String, Double> h) {
    return FederatedAlgorithm.of(name(), new CoordinateMedian())
        .withServerOptimizer(new ServerSgd(h.get("step"), 0));
  }
}
