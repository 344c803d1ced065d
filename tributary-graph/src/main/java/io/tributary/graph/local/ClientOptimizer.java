package io.tributary.graph.local;

import io.tributary.graph.optim.Adagrad;
import io.tributary.graph.optim.Adam;
import io.tributary.graph.optim.Momentum;
import io.tributary.graph.optim.Optimizer;
import io.tributary.graph.optim.Sgd;
import io.tributary.graph.optim.Yogi;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The optimizer a client update trains with: one of {@code sgd}, {@code momentum}, {@code adam},
 * {@code adagrad}, {@code yogi} and its hyperparameters other than the learning rate (which is
 * {@link ClientUpdateConfig#learningRate()}).
 *
 * <p>Every hyperparameter has a default, the {@link io.tributary.graph.optim} classes' own where
 * they have one: momentum {@code momentum=0.9} (no Nesterov correction); adam {@code beta1=0.9, beta2=0.999,
 * epsilon=1e-7}; adagrad {@code initial_accumulator=0.1, epsilon=1e-7}; yogi {@code beta1=0.9,
 * beta2=0.999, epsilon=1e-3, initial_v=1e-6}. The spec holds every hyperparameter of its
 * optimizer, defaults filled in, so equal specs train alike. The optimizer's state starts afresh
 * at every client update (every round), as TFF resets its client optimizers each round.
 *
 * @param name the optimizer's name
 * @param hyperparameters every hyperparameter but the learning rate, by name, sorted
 */
public record ClientOptimizer(String name, SortedMap<String, Double> hyperparameters) {
  /** The optimizers a client may train with, in display order. */
  public static final List<String> NAMES = List.of("sgd", "momentum", "adam", "adagrad", "yogi");

  private static final Map<String, Map<String, Double>> DEFAULTS = defaults();

  /**
   * Checks the name and every hyperparameter.
   *
   * @throws IllegalArgumentException naming the optimizer or hyperparameter that is wrong
   */
  public ClientOptimizer {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(hyperparameters, "hyperparameters");
    Map<String, Double> known = DEFAULTS.get(name);
    if (known == null) {
      throw new IllegalArgumentException("unknown client optimizer '" + name + "'; known: "
          + String.join(", ", NAMES));
    }
    for (Map.Entry<String, Double> e : hyperparameters.entrySet()) {
      if (!known.containsKey(e.getKey())) {
        throw new IllegalArgumentException("client optimizer " + name + " has no hyperparameter '"
            + e.getKey() + "'" + (known.isEmpty() ? "" : "; it has " + known.keySet()));
      }
      check(e.getKey(), Objects.requireNonNull(e.getValue(), e.getKey()));
    }
    if (!hyperparameters.keySet().equals(known.keySet())) {
      throw new IllegalArgumentException("client optimizer " + name + " needs the hyperparameters "
          + known.keySet() + ", got " + hyperparameters.keySet());
    }
    hyperparameters = Collections.unmodifiableSortedMap(new TreeMap<>(hyperparameters));
  }

  /** Plain SGD, the default: the client update's fused step. */
  public static ClientOptimizer sgd() {
    return of("sgd", Map.of());
  }

  /** SGD with momentum {@code momentum}, without Nesterov's correction. */
  public static ClientOptimizer momentum(double momentum) {
    return of("momentum", Map.of("momentum", momentum));
  }

  /** Adam with the given decay rates and epsilon. */
  public static ClientOptimizer adam(double beta1, double beta2, double epsilon) {
    return of("adam", Map.of("beta1", beta1, "beta2", beta2, "epsilon", epsilon));
  }

  /** Adagrad with the given initial accumulator and epsilon. */
  public static ClientOptimizer adagrad(double initialAccumulator, double epsilon) {
    return of("adagrad", Map.of("initial_accumulator", initialAccumulator, "epsilon", epsilon));
  }

  /** Yogi with the given decay rates, epsilon and initial second moment. */
  public static ClientOptimizer yogi(double beta1, double beta2, double epsilon, double initialV) {
    return of("yogi", Map.of("beta1", beta1, "beta2", beta2, "epsilon", epsilon,
        "initial_v", initialV));
  }

  /**
   * The optimizer {@code name} with {@code given} hyperparameters and the defaults for the rest.
   *
   * @throws IllegalArgumentException for an unknown name, an unknown hyperparameter or a value out
   *     of range, naming it
   */
  public static ClientOptimizer of(String name, Map<String, Double> given) {
    Map<String, Double> known = DEFAULTS.get(Objects.requireNonNull(name, "name"));
    if (known == null) {
      throw new IllegalArgumentException("unknown client optimizer '" + name + "'; known: "
          + String.join(", ", NAMES));
    }
    SortedMap<String, Double> all = new TreeMap<>(known);
    for (Map.Entry<String, Double> e : given.entrySet()) {
      if (!known.containsKey(e.getKey())) {
        throw new IllegalArgumentException("client optimizer " + name + " has no hyperparameter '"
            + e.getKey() + "'" + (known.isEmpty() ? "" : "; it has " + known.keySet()));
      }
      all.put(e.getKey(), e.getValue());
    }
    return new ClientOptimizer(name, all);
  }

  /** The defaults of {@code name}'s hyperparameters (empty for sgd), sorted by name. */
  public static SortedMap<String, Double> defaults(String name) {
    Map<String, Double> known = DEFAULTS.get(name);
    if (known == null) {
      throw new IllegalArgumentException("unknown client optimizer '" + name + "'; known: "
          + String.join(", ", NAMES));
    }
    return Collections.unmodifiableSortedMap(new TreeMap<>(known));
  }

  /** Whether this is plain SGD, which the client update fuses into its compiled step. */
  public boolean isSgd() {
    return name.equals("sgd");
  }

  /** The optimizer with step size {@code learningRate}. */
  public Optimizer create(double learningRate) {
    Map<String, Double> h = hyperparameters;
    return switch (name) {
      case "sgd" -> new Sgd(learningRate);
      case "momentum" -> new Momentum(learningRate, h.get("momentum"));
      case "adam" -> new Adam(learningRate, h.get("beta1"), h.get("beta2"), h.get("epsilon"));
      case "adagrad" -> new Adagrad(learningRate, h.get("initial_accumulator"), h.get("epsilon"));
      case "yogi" -> new Yogi(learningRate, h.get("beta1"), h.get("beta2"), h.get("epsilon"),
          h.get("initial_v"));
      default -> throw new IllegalStateException("unknown client optimizer " + name);
    };
  }

  /** {@code name} and its hyperparameters as text, such as {@code adam(beta1=0.9, ...)}. */
  @Override
  public String toString() {
    if (hyperparameters.isEmpty()) {
      return name;
    }
    StringBuilder s = new StringBuilder(name).append('(');
    hyperparameters.forEach((k, v) -> s.append(s.charAt(s.length() - 1) == '(' ? "" : ", ")
        .append(k).append('=').append(v));
    return s.append(')').toString();
  }

  private static void check(String key, double v) {
    switch (key) {
      case "momentum", "beta1", "beta2" -> {
        if (!(v >= 0 && v < 1)) {
          throw new IllegalArgumentException(key + " must be in [0, 1), got " + v);
        }
      }
      case "epsilon" -> {
        if (!(v > 0) || !Double.isFinite(v)) {
          throw new IllegalArgumentException(key + " must be positive and finite, got " + v);
        }
      }
      case "initial_accumulator", "initial_v" -> {
        if (!(v >= 0) || !Double.isFinite(v)) {
          throw new IllegalArgumentException(key + " must be >= 0 and finite, got " + v);
        }
      }
      default -> throw new IllegalStateException("no check for " + key);
    }
  }

  private static Map<String, Map<String, Double>> defaults() {
    Map<String, Map<String, Double>> d = new LinkedHashMap<>();
    d.put("sgd", Map.of());
    d.put("momentum", Map.of("momentum", 0.9));
    d.put("adam", Map.of("beta1", 0.9, "beta2", 0.999, "epsilon", 1e-7));
    d.put("adagrad", Map.of("initial_accumulator", 0.1, "epsilon", 1e-7));
    d.put("yogi", Map.of("beta1", 0.9, "beta2", 0.999, "epsilon", 1e-3, "initial_v", 1e-6));
    return Collections.unmodifiableMap(d);
  }
}
