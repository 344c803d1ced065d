package io.tributary.learning;

import java.util.Map;
import java.util.SequencedMap;

/**
 * The installed algorithms by name: Flower's strategy suite (lower-case names, Flower's
 * hyperparameter names and defaults, such as FedAdam's {@code eta=0.1, beta_1=0.9, beta_2=0.99,
 * tau=1e-9}) and every {@link AlgorithmSpec} a jar on the class path registers; shorthand for
 * {@link AlgorithmRegistry#installed()}.
 *
 * <pre>{@code
 * FederatedAlgorithm adam = Algorithms.named("fedadam", Map.of("eta", 0.01));
 * LearningProcess process = adam.build(model, 1, 10, 0.1, seed);
 * }</pre>
 *
 * <p>Flower's client learning rate {@code eta_l} is not a server hyperparameter here: the clients'
 * learning rate is the client work's (simulate's {@code --lr}).
 */
public final class Algorithms {
  private Algorithms() {}

  /** Every algorithm of the installed registry by name, with a one-line description. */
  public static SequencedMap<String, String> descriptions() {
    return AlgorithmRegistry.installed().descriptions();
  }

  /**
   * The hyperparameters {@code name} takes, with their defaults, in the spec's order.
   *
   * @throws IllegalArgumentException naming the known algorithms when {@code name} is not one
   */
  public static SequencedMap<String, Double> defaults(String name) {
    return AlgorithmRegistry.installed().defaults(name);
  }

  /** The algorithm {@code name} with its defaults. */
  public static FederatedAlgorithm named(String name) {
    return named(name, Map.of());
  }

  /**
   * The algorithm {@code name} with {@code hyperparameters} (by Flower's names) in place of the
   * defaults.
   *
   * @throws IllegalArgumentException naming the algorithm and the offending hyperparameter when
   *     the name is unknown, a hyperparameter is not one of the algorithm's, or a value is out of
   *     range
   */
  public static FederatedAlgorithm named(String name, Map<String, Double> hyperparameters) {
    return AlgorithmRegistry.installed().build(name, hyperparameters);
  }
}
