package io.tributary.learning;

import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.Bulyan;
import io.tributary.learning.aggregation.CoordinateMedian;
import io.tributary.learning.aggregation.Krum;
import io.tributary.learning.aggregation.QFedAvg;
import io.tributary.learning.aggregation.TrimmedMean;
import io.tributary.learning.aggregation.WeightedMean;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer;
import io.tributary.learning.serveropt.AdaptiveServerOptimizer.Kind;
import io.tributary.learning.serveropt.ServerOptimizer;
import io.tributary.learning.serveropt.ServerSgd;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Flower's strategy suite as {@link FederatedAlgorithm}s, by Flower's names (lower case) and with
 * Flower's hyperparameter names and defaults, such as FedAdam's {@code eta=0.1, beta_1=0.9,
 * beta_2=0.99, tau=1e-9}.
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

  /** One algorithm of the suite: what it is, its hyperparameters' defaults, how to build it. */
  private record Entry(String description, SequencedMap<String, Double> defaults,
      Function<Params, FederatedAlgorithm> build) {}

  private static final SequencedMap<String, Entry> SUITE = suite();

  private static SequencedMap<String, Entry> suite() {
    SequencedMap<String, Entry> s = new LinkedHashMap<>();
    s.put("fedavg", new Entry("example-weighted mean of the updates (McMahan et al. 2017)",
        defaults(), p -> FederatedAlgorithm.fedAvg()));
    s.put("fedavgm", new Entry("FedAvg with server momentum (Hsu et al. 2019)",
        defaults("server_learning_rate", 1.0, "server_momentum", 0.0),
        p -> server("fedavgm", new ServerSgd(p.get("server_learning_rate"),
            p.get("server_momentum")))));
    s.put("fedprox", new Entry("FedAvg with a proximal term on the clients (Li et al. 2020)",
        defaults("proximal_mu", 0.01),
        p -> new FederatedAlgorithm("fedprox", p.get("proximal_mu"), new WeightedMean(),
            new ServerSgd(1, 0))));
    s.put("fedadam", new Entry("server Adam on the mean update (Reddi et al. 2021)",
        defaults("eta", 0.1, "beta_1", 0.9, "beta_2", 0.99, "tau", 1e-9),
        p -> server("fedadam", new AdaptiveServerOptimizer(Kind.ADAM, p.get("eta"),
            p.get("beta_1"), p.get("beta_2"), p.get("tau")))));
    s.put("fedyogi", new Entry("server Yogi on the mean update (Reddi et al. 2021)",
        defaults("eta", 0.01, "beta_1", 0.9, "beta_2", 0.99, "tau", 1e-3),
        p -> server("fedyogi", new AdaptiveServerOptimizer(Kind.YOGI, p.get("eta"),
            p.get("beta_1"), p.get("beta_2"), p.get("tau")))));
    s.put("fedadagrad", new Entry("server Adagrad on the mean update (Reddi et al. 2021)",
        defaults("eta", 0.1, "tau", 1e-9),
        p -> server("fedadagrad", new AdaptiveServerOptimizer(Kind.ADAGRAD, p.get("eta"), 0, 0,
            p.get("tau")))));
    s.put("fedmedian", new Entry("coordinate-wise median of the updates (Yin et al. 2018)",
        defaults(), p -> robust("fedmedian", new CoordinateMedian())));
    s.put("fedtrimmedavg", new Entry("coordinate-wise trimmed mean (Yin et al. 2018)", defaults("beta", 0.2),
        p -> robust("fedtrimmedavg", new TrimmedMean(p.get("beta")))));
    s.put("krum", new Entry("the update nearest its neighbours (Blanchard et al. 2017)",
        defaults("num_malicious_clients", 0.0, "num_clients_to_keep", 0.0),
        p -> robust("krum", new Krum(p.integer("num_malicious_clients"),
            p.integer("num_clients_to_keep")))));
    s.put("multikrum", new Entry("mean of the m best Krum updates (Blanchard et al. 2017)", defaults("num_malicious_clients", 0.0, "num_clients_to_keep", 1.0),
        p -> robust("multikrum", new Krum(p.integer("num_malicious_clients"),
            p.positive("num_clients_to_keep")))));
    s.put("bulyan", new Entry("Krum picks, then a trimmed median (El Mhamdi et al. 2018)", defaults("num_malicious_clients", 0.0),
        p -> robust("bulyan", new Bulyan(p.integer("num_malicious_clients")))));
    s.put("qfedavg", new Entry("fair FedAvg weighting clients by loss^q (Li et al. 2020)",
        defaults("q_param", 0.2, "qffl_learning_rate", 0.1),
        p -> robust("qfedavg", new QFedAvg(p.get("q_param"), p.get("qffl_learning_rate")))));
    return Collections.unmodifiableSequencedMap(s);
  }

  /** Every algorithm of the suite by name, with a one-line description, in a fixed order. */
  public static SequencedMap<String, String> descriptions() {
    SequencedMap<String, String> out = new LinkedHashMap<>();
    SUITE.forEach((k, v) -> out.put(k, v.description()));
    return out;
  }

  /**
   * The hyperparameters {@code name} takes, with Flower's defaults, in Flower's order.
   *
   * @throws IllegalArgumentException naming the known algorithms when {@code name} is not one
   */
  public static SequencedMap<String, Double> defaults(String name) {
    return entry(name).defaults();
  }

  /** The algorithm {@code name} with Flower's defaults. */
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
    Entry e = entry(name);
    for (String k : new TreeMap<>(hyperparameters).keySet()) {
      if (!e.defaults().containsKey(k)) {
        throw new IllegalArgumentException(name + " has no hyperparameter '" + k + "'; it takes "
            + (e.defaults().isEmpty() ? "none" : String.join(", ", e.defaults().keySet())));
      }
    }
    SequencedMap<String, Double> values = new LinkedHashMap<>(e.defaults());
    values.putAll(hyperparameters);
    try {
      return e.build().apply(new Params(name, values));
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException(name + ": " + ex.getMessage(), ex);
    }
  }

  private static Entry entry(String name) {
    Entry e = SUITE.get(name.toLowerCase(Locale.ROOT));
    if (e == null) {
      throw new IllegalArgumentException("unknown algorithm '" + name + "'; known: "
          + String.join(", ", SUITE.keySet()));
    }
    return e;
  }

  private static FederatedAlgorithm server(String name, ServerOptimizer optimizer) {
    return new FederatedAlgorithm(name, 0, new WeightedMean(), optimizer);
  }

  private static FederatedAlgorithm robust(String name, Aggregator aggregator) {
    return new FederatedAlgorithm(name, 0, aggregator, new ServerSgd(1, 0));
  }

  private static SequencedMap<String, Double> defaults(Object... pairs) {
    SequencedMap<String, Double> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Double) pairs[i + 1]);
    }
    return Collections.unmodifiableSequencedMap(m);
  }

  /** The hyperparameters of one build, read with checks. */
  private record Params(String algorithm, Map<String, Double> values) {
    double get(String k) {
      double v = values.get(k);
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(k + " must be finite, got " + v);
      }
      return v;
    }

    int integer(String k) {
      double v = get(k);
      if (v != Math.rint(v) || v < 0 || v > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(k + " must be a whole number >= 0, got " + v);
      }
      return (int) v;
    }

    int positive(String k) {
      int v = integer(k);
      if (v < 1) {
        throw new IllegalArgumentException(k + " must be >= 1, got " + v);
      }
      return v;
    }
  }

  /** The hyperparameter names of every algorithm, for tools listing them. */
  static List<String> allHyperparameters() {
    return SUITE.values().stream().flatMap(e -> e.defaults().keySet().stream()).distinct()
        .sorted().toList();
  }
}
