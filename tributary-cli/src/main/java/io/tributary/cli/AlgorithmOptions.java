package io.tributary.cli;

import io.tributary.learning.AlgorithmRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options of the algorithm suite that {@code simulate} and {@code server} share: each flag
 * becomes the Flower hyperparameter of the same meaning ({@code --server-lr} is FedAvgM's
 * {@code server_learning_rate} and FedAdam's {@code eta}); the library checks that the algorithm
 * takes it.
 */
final class AlgorithmOptions {
  @Option(names = "--server-lr", paramLabel = "ETA",
      description = "server learning rate: fedavgm's server_learning_rate (default 1), fedadam's "
          + "and fedadagrad's eta (0.1), fedyogi's eta (0.01)")
  Double serverLr;

  @Option(names = "--server-momentum", paramLabel = "M",
      description = "fedavgm's server_momentum, in [0, 1) (default 0)")
  Double serverMomentum;

  @Option(names = "--beta1", paramLabel = "B1",
      description = "fedadam's and fedyogi's beta_1, in [0, 1) (default 0.9)")
  Double beta1;

  @Option(names = "--beta2", paramLabel = "B2",
      description = "fedadam's and fedyogi's beta_2, in [0, 1) (default 0.99)")
  Double beta2;

  @Option(names = "--tau", paramLabel = "TAU",
      description = "adaptivity tau of fedadam, fedadagrad (default 1e-9) and fedyogi (1e-3)")
  Double tau;

  @Option(names = "--trim-beta", paramLabel = "BETA",
      description = "fedtrimmedavg's beta, the fraction cut from each end, in [0, 0.5) "
          + "(default 0.2)")
  Double trimBeta;

  @Option(names = "--krum-f", paramLabel = "F",
      description = "krum's, multikrum's and bulyan's num_malicious_clients (default 0)")
  Integer krumF;

  @Option(names = "--krum-m", paramLabel = "M",
      description = "krum's and multikrum's num_clients_to_keep (default 0 for krum, 1 for "
          + "multikrum)")
  Integer krumM;

  @Option(names = "--q", paramLabel = "Q",
      description = "qfedavg's q_param, the fairness exponent, >= 0 (default 0.2)")
  Double q;

  @Option(names = "--qffl-lr", paramLabel = "LR",
      description = "qfedavg's qffl_learning_rate, the clients' step size its updates are "
          + "divided by (default 0.1)")
  Double qfflLr;

  @Option(names = "--hp", paramLabel = "NAME=VALUE",
      description = "a hyperparameter of the algorithm by its name, such as eta=0.01 for "
          + "fedadam or a registered algorithm's own; repeatable")
  List<String> hp = new ArrayList<>();

  /**
   * The hyperparameters given, by Flower's names, for {@code algorithm}.
   *
   * @throws IllegalArgumentException naming the unknown algorithm
   */
  Map<String, Double> hyperparameters(String algorithm) {
    SequencedMap<String, Double> defaults = AlgorithmRegistry.installed().defaults(algorithm);
    SequencedMap<String, Double> h = new LinkedHashMap<>();
    put(h, defaults.containsKey("eta") ? "eta" : "server_learning_rate", serverLr);
    put(h, "server_momentum", serverMomentum);
    put(h, "beta_1", beta1);
    put(h, "beta_2", beta2);
    put(h, "tau", tau);
    put(h, "beta", trimBeta);
    put(h, "num_malicious_clients", krumF == null ? null : krumF.doubleValue());
    put(h, "num_clients_to_keep", krumM == null ? null : krumM.doubleValue());
    put(h, "q_param", q);
    put(h, "qffl_learning_rate", qfflLr);
    for (Map.Entry<String, String> e : KeyValues.split("--hp", "NAME=VALUE", hp)) {
      double value;
      try {
        value = Double.parseDouble(e.getValue());
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("--hp " + KeyValues.clip(e.getKey()) + ": '"
            + KeyValues.clip(e.getValue()) + "' is not a number");
      }
      if (h.put(e.getKey(), value) != null) {
        throw new IllegalArgumentException("--hp " + KeyValues.clip(e.getKey()) + " is given "
            + "twice (or also by its own flag)");
      }
    }
    return h;
  }

  /**
   * The library's message about a hyperparameter ({@code hierfavg: edge_rounds must be ...})
   * with the hyperparameter spelled as its flag ({@code hierfavg: --edge-rounds must be ...});
   * one without a flag of its own, set by {@code --hp NAME=VALUE}, keeps its name.
   */
  static String flagged(String algorithm, String message) {
    String prefix = algorithm.strip().toLowerCase(Locale.ROOT) + ": ";
    if (!message.startsWith(prefix)) {
      return message;
    }
    String rest = message.substring(prefix.length());
    int space = rest.indexOf(' ');
    if (space < 0) {
      return message;
    }
    String name = rest.substring(0, space);
    return AlgorithmRegistry.installed().defaults(algorithm).containsKey(name)
        && io.tributary.simulation.SimulationSettings.hasOwnFlag(name)
        ? prefix + io.tributary.simulation.SimulationSettings.hyperparameterFlag(name)
            + rest.substring(space)
        : message;
  }

  private static void put(Map<String, Double> h, String name, Double value) {
    if (value != null) {
      h.put(name, value);
    }
  }

  /** The help's list of algorithms, one line each, for a command's footer. */
  static String[] footer() {
    SequencedMap<String, String> d = AlgorithmRegistry.installed().descriptions();
    String[] lines = new String[d.size() + 1];
    lines[0] = "Algorithms (--algorithm NAME):";
    int i = 1;
    for (var e : d.entrySet()) {
      lines[i++] = String.format(Locale.ROOT, "  %-14s %s", e.getKey(), e.getValue());
    }
    return lines;
  }

  /** Adds {@link #footer} to a command's help. */
  static void describeIn(CommandSpec spec) {
    spec.usageMessage().footer(footer());
  }
}
