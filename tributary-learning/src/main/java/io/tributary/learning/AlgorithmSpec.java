package io.tributary.learning;

import java.util.List;
import java.util.Map;

/**
 * A federated algorithm as the registry knows it: a name, its hyperparameters with defaults and
 * ranges, and how to build it from their values. The suite's algorithms are specs, and so is a
 * user's: one class implementing this interface, listed in {@code
 * META-INF/services/io.tributary.learning.AlgorithmSpec}, is found by {@link AlgorithmRegistry}
 * and runs from {@code simulate --algorithm NAME --hp KEY=VALUE}, {@code server}, the library
 * and Spark alike.
 *
 * <pre>{@code
 * public final class ClippedMean implements AlgorithmSpec {
 *   public String name() { return "clippedmean"; }
 *   public String description() { return "mean of updates clipped to a bound"; }
 *   public List<Hyperparameter> hyperparameters() {
 *     return List.of(Hyperparameter.real("bound", 1, 0, 1e6, "the clipping bound"));
 *   }
 *   public FederatedAlgorithm build(Map<String, Double> h) {
 *     double bound = h.get("bound");
 *     return FederatedAlgorithm.of(name(), WholeRoundAggregator.of("clipped_mean",
 *         updates -> ...));
 *   }
 * }
 * }</pre>
 */
public interface AlgorithmSpec {
  /** The name {@code --algorithm} takes: lower case, unique among the registered specs. */
  String name();

  /** One line for the help's list of algorithms. */
  String description();

  /** The hyperparameters, in the order the help and config.json show them; none by default. */
  default List<Hyperparameter> hyperparameters() {
    return List.of();
  }

  /**
   * The algorithm with these hyperparameter values: every one of {@link #hyperparameters()},
   * each already checked against its range.
   *
   * @throws IllegalArgumentException when values that are each in range do not go together
   */
  FederatedAlgorithm build(Map<String, Double> values);
}
