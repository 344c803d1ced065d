package io.tributary.simulation;

import io.tributary.learning.AlgorithmRegistry;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.SettingException;
import io.tributary.learning.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * How a simulation records and repeats its {@link FederatedAlgorithm}: an algorithm of the
 * installed registry is its name and hyperparameters ({@code config.json}'s {@code algorithm}
 * and {@code algorithm_options}, the command's {@code --algorithm} and flags), its proximal
 * coefficient the run's {@code mu}; any other is composed in code, recorded by its parts so that
 * a resume can tell another apart, and repeated only by code.
 */
final class RunAlgorithm {
  private RunAlgorithm() {}

  /** The proximal coefficient's hyperparameter, which a simulation sets from its {@code mu}. */
  static final String PROXIMAL_MU = "proximal_mu";

  /** The command-line flag of each hyperparameter, by Flower's name. */
  private static final Map<String, String> FLAGS = Map.ofEntries(
      Map.entry("server_learning_rate", "--server-lr"), Map.entry("eta", "--server-lr"),
      Map.entry("server_momentum", "--server-momentum"), Map.entry("beta_1", "--beta1"),
      Map.entry("beta_2", "--beta2"), Map.entry("tau", "--tau"), Map.entry("beta", "--trim-beta"),
      Map.entry("num_malicious_clients", "--krum-f"), Map.entry("num_clients_to_keep", "--krum-m"),
      Map.entry("q_param", "--q"), Map.entry("qffl_learning_rate", "--qffl-lr"),
      Map.entry("edges", "--edges"), Map.entry("edge_rounds", "--edge-rounds"));

  /**
   * The algorithm {@code name} of the installed registry with {@code options} over its defaults;
   * its {@code proximal_mu}, if it takes one, is the run's {@code mu}, not an option.
   *
   * @throws IllegalArgumentException naming the unknown algorithm, an option it does not take (a
   *     {@link SettingException} naming it {@code hyperparameters.NAME}) or a value out of range
   */
  static FederatedAlgorithm named(String name, Map<String, Double> options) {
    String key = name.strip().toLowerCase(Locale.ROOT);
    SequencedMap<String, Double> defaults = AlgorithmRegistry.installed().defaults(key);
    List<String> takes = new ArrayList<>();
    defaults.keySet().stream().filter(k -> !k.equals(PROXIMAL_MU)).forEach(takes::add);
    for (String k : new java.util.TreeMap<>(options).keySet()) {
      if (!takes.contains(k)) {
        // Named as Java code names them (hyperparameters.beta_1); the CLI renders its flags.
        throw new SettingException("algorithm", "{" + SimulationSettings.HYPERPARAMETER + k
            + "} does not apply to {algorithm} " + key + (takes.isEmpty()
                ? ", which takes no options" : "; it takes " + String.join(", ", takes.stream()
                    .map(h -> "{" + SimulationSettings.HYPERPARAMETER + h + "}").toList())));
      }
    }
    return FederatedAlgorithm.named(key, options);
  }

  /** Whether {@code a} was built by the installed registry, so that its name repeats it. */
  static boolean registered(FederatedAlgorithm a) {
    return a.registration().isPresent()
        && AlgorithmRegistry.installed().contains(a.registration().get().spec());
  }

  /**
   * Whether the clients train with a proximal term of the run's {@code mu}: {@code a} is
   * registered and its spec takes {@code proximal_mu}, as FedProx's does. A composed
   * algorithm's mu is its own.
   */
  static boolean proximal(FederatedAlgorithm a) {
    return registered(a) && a.registration().get().hyperparameters().containsKey(PROXIMAL_MU);
  }

  /** {@code a} with the run's proximal coefficient {@code mu}, if it takes one. */
  static FederatedAlgorithm withMu(FederatedAlgorithm a, double mu) {
    if (!proximal(a) || a.registration().get().hyperparameters().get(PROXIMAL_MU) == mu) {
      return a;
    }
    FederatedAlgorithm.Registration r = a.registration().get();
    SequencedMap<String, Double> h = new LinkedHashMap<>(r.hyperparameters());
    h.put(PROXIMAL_MU, mu);
    return AlgorithmRegistry.installed().build(r.spec(), h);
  }

  /** The proximal coefficient {@code a}'s registration holds, if it takes one. */
  static Optional<Double> proximalMu(FederatedAlgorithm a) {
    return proximal(a) ? Optional.of(a.registration().get().hyperparameters().get(PROXIMAL_MU))
        : Optional.empty();
  }

  /**
   * A registered algorithm's hyperparameters but {@code proximal_mu}, in its spec's order; empty
   * for a composed one.
   */
  static SequencedMap<String, Double> options(FederatedAlgorithm a) {
    SequencedMap<String, Double> m = new LinkedHashMap<>();
    if (registered(a)) {
      a.registration().get().hyperparameters().forEach((k, v) -> {
        if (!k.equals(PROXIMAL_MU)) {
          m.put(k, v);
        }
      });
    }
    return Collections.unmodifiableSequencedMap(m);
  }

  /**
   * The command-line flag of a hyperparameter: its own flag, such as {@code --beta1} for {@code
   * beta_1}, or {@code --hp NAME} for one without (a registered algorithm's).
   */
  static String flag(String hyperparameter) {
    return FLAGS.getOrDefault(hyperparameter, "--hp " + hyperparameter);
  }

  /** Whether {@code hyperparameter} has a flag of its own (else {@code --hp NAME=VALUE}). */
  static boolean hasOwnFlag(String hyperparameter) {
    return FLAGS.containsKey(hyperparameter);
  }

  /** The words that set the options on the command line, such as {@code --beta1 0.9}. */
  static List<String> commandWords(FederatedAlgorithm a) {
    List<String> words = new ArrayList<>();
    options(a).forEach((k, v) -> words.addAll(hasOwnFlag(k)
        ? List.of(flag(k), SimulationSettings.number(v))
        : List.of("--hp", k + "=" + SimulationSettings.number(v))));
    return words;
  }

  /**
   * A composed algorithm's parts as text, to record and compare ({@code mu}, {@code aggregator},
   * {@code server_optimizer}, and {@code topology} for one through edges); empty for a
   * registered one. A part is its {@code toString} (a record's lists its values); a part whose
   * class keeps {@link Object}'s shows its class name only, so that the text stays the same from
   * run to run, and its values go unrecorded.
   */
  static SequencedMap<String, String> parts(FederatedAlgorithm a) {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    if (!registered(a)) {
      m.put("mu", SimulationSettings.number(a.mu()));
      m.put("aggregator", describe(a.aggregator()));
      m.put("server_optimizer", describe(a.serverOptimizer()));
      if (!(a.topology() instanceof Topology.Flat)) {
        // Only through edges: the files of flat algorithms stay as they were.
        m.put("topology", describe(a.topology()));
      }
    }
    return m;
  }

  private static String describe(Object part) {
    String text = String.valueOf(part);
    String plain = part.getClass().getName() + "@" + Integer.toHexString(part.hashCode());
    return text.equals(plain) ? part.getClass().getName() + " (values not recorded: no toString)"
        : text;
  }
}
