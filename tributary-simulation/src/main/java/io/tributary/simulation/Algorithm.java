package io.tributary.simulation;

import io.tributary.learning.AlgorithmRegistry;
import io.tributary.learning.Algorithms;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.SettingException;
import io.tributary.learning.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * The federated algorithm of a simulation (the {@code --algorithm} value and its options): one of
 * {@link Algorithms}' suite by name, with its server-side hyperparameters resolved against
 * Flower's defaults, or an algorithm composed in code ({@link #custom}). FedProx's {@code
 * proximal_mu} is the simulation's {@code --mu}, not one of these.
 *
 * @param name the suite's name, such as {@code fedadam}, or the custom algorithm's
 * @param hyperparameters every hyperparameter of the algorithm but {@code proximal_mu}, by
 *     Flower's name, in Flower's order; empty for a custom algorithm
 * @param custom the algorithm composed in code, if this is one; the command line cannot name it,
 *     so the run's recorded command names it but only code can repeat it
 */
public record Algorithm(String name, SequencedMap<String, Double> hyperparameters,
    Optional<FederatedAlgorithm> custom) {
  /** The command-line flag of each hyperparameter, by Flower's name. */
  private static final Map<String, String> FLAGS = Map.ofEntries(
      Map.entry("server_learning_rate", "--server-lr"), Map.entry("eta", "--server-lr"),
      Map.entry("server_momentum", "--server-momentum"), Map.entry("beta_1", "--beta1"),
      Map.entry("beta_2", "--beta2"), Map.entry("tau", "--tau"), Map.entry("beta", "--trim-beta"),
      Map.entry("num_malicious_clients", "--krum-f"), Map.entry("num_clients_to_keep", "--krum-m"),
      Map.entry("q_param", "--q"), Map.entry("qffl_learning_rate", "--qffl-lr"),
      Map.entry("edges", "--edges"), Map.entry("edge_rounds", "--edge-rounds"));

  /**
   * The prefix of a hyperparameter's name in a {@link SettingException}: {@code
   * hyperparameters.beta_1} is the map entry {@code beta_1}.
   */
  public static final String HYPERPARAMETER = "hyperparameters.";

  /** Federated Averaging (McMahan et al. 2017). */
  public static final Algorithm FEDAVG = of("fedavg");
  /** FedProx (Li et al. 2020): FedAvg with a proximal term of weight mu in the client loss. */
  public static final Algorithm FEDPROX = of("fedprox");

  /**
   * Resolves the hyperparameters against the algorithm's defaults and checks them by building
   * the algorithm once.
   *
   * @throws IllegalArgumentException naming the unknown algorithm, a hyperparameter it does not
   *     take (a {@link SettingException} naming it {@code hyperparameters.NAME}) or a value out of
   *     range
   */
  public Algorithm {
    Objects.requireNonNull(custom, "custom");
    if (custom.isPresent()) {
      name = custom.get().name();
      hyperparameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>());
    } else {
      name = Objects.requireNonNull(name, "name").strip().toLowerCase(Locale.ROOT);
      hyperparameters = resolve(name, hyperparameters);
    }
  }

  private static SequencedMap<String, Double> resolve(String name,
      SequencedMap<String, Double> given) {
    SequencedMap<String, Double> defaults = Algorithms.defaults(name);
    SequencedMap<String, Double> resolved = new LinkedHashMap<>();
    for (var e : defaults.entrySet()) {
      if (!e.getKey().equals("proximal_mu")) {
        resolved.put(e.getKey(), given.getOrDefault(e.getKey(), e.getValue()));
      }
    }
    for (String k : given.keySet()) {
      if (!resolved.containsKey(k)) {
        // Named as Java code names them (hyperparameters.beta_1); the CLI renders its flags.
        throw new SettingException("algorithm", "{" + HYPERPARAMETER + k + "} does not apply to "
            + "{algorithm} " + name + (resolved.isEmpty() ? ", which takes no options"
                : "; it takes " + String.join(", ", resolved.sequencedKeySet().stream()
                    .map(h -> "{" + HYPERPARAMETER + h + "}").toList())));
      }
    }
    Algorithms.named(name, resolved);
    return Collections.unmodifiableSequencedMap(resolved);
  }

  /** The algorithm {@code name} with Flower's defaults. */
  public static Algorithm of(String name) {
    return new Algorithm(name, new LinkedHashMap<>(), Optional.empty());
  }

  /**
   * An algorithm composed in code, such as FedAdam with an aggregator of one's own; its proximal
   * coefficient is its own ({@link FederatedAlgorithm#mu}), so the settings' {@code mu} stays 0.
   */
  public static Algorithm custom(FederatedAlgorithm algorithm) {
    return registered(algorithm).orElseGet(() -> new Algorithm(algorithm.name(),
        new LinkedHashMap<>(), Optional.of(algorithm)));
  }

  /** The most hyperparameter combinations {@link #registered} tries. */
  private static final int MAX_CANDIDATES = 20_000;

  /**
   * The registered algorithm that builds exactly {@code a}, if there is one: same name, and
   * hyperparameters drawn from the spec's defaults and the numbers {@code a}'s parts hold (a
   * record's components), so that {@code Algorithm.custom(Algorithms.named("fedadam", h))} is
   * recorded as {@code fedadam} with {@code h}, repeatable from the command line, on Spark too.
   * A proximal algorithm is left composed: its mu is the run's, not the algorithm's.
   */
  static Optional<Algorithm> registered(FederatedAlgorithm a) {
    AlgorithmRegistry registry = AlgorithmRegistry.installed();
    if (!registry.contains(a.name()) || registry.proximal(a.name()) || a.mu() != 0) {
      return Optional.empty();
    }
    SequencedMap<String, Double> defaults = new LinkedHashMap<>(registry.defaults(a.name()));
    java.util.Set<Double> held = new java.util.LinkedHashSet<>();
    numbers(a.aggregator(), held);
    numbers(a.serverOptimizer(), held);
    List<String> names = new ArrayList<>(defaults.keySet());
    List<List<Double>> choices = new ArrayList<>();
    long combinations = 1;
    for (String n : names) {
      java.util.Set<Double> c = new java.util.LinkedHashSet<>();
      c.add(defaults.get(n));
      c.addAll(held);
      choices.add(new ArrayList<>(c));
      combinations *= c.size();
      if (combinations > MAX_CANDIDATES) {
        return Optional.empty();
      }
    }
    int[] at = new int[names.size()];
    for (long i = 0; i < combinations; i++) {
      SequencedMap<String, Double> h = new LinkedHashMap<>();
      for (int j = 0; j < names.size(); j++) {
        h.put(names.get(j), choices.get(j).get(at[j]));
      }
      try {
        if (registry.build(a.name(), h).equals(a)) {
          return Optional.of(of(a.name(), h));
        }
      } catch (IllegalArgumentException e) {
        // A combination out of range is not this algorithm.
      }
      for (int j = 0; j < at.length && ++at[j] == choices.get(j).size(); j++) {
        at[j] = 0;
      }
    }
    return Optional.empty();
  }

  /** The numbers a record's components hold (its nested records' too). */
  private static void numbers(Object part, java.util.Set<Double> out) {
    if (part == null || !part.getClass().isRecord()) {
      return;
    }
    for (var c : part.getClass().getRecordComponents()) {
      try {
        Object v = c.getAccessor().invoke(part);
        if (v instanceof Number n) {
          out.add(n.doubleValue());
        } else {
          numbers(v, out);
        }
      } catch (ReflectiveOperationException | SecurityException e) {
        // A component that cannot be read gives no candidate.
      }
    }
  }

  /** The algorithm {@code name} with these hyperparameters (Flower's names) over the defaults. */
  public static Algorithm of(String name, Map<String, Double> hyperparameters) {
    return new Algorithm(name, new LinkedHashMap<>(hyperparameters), Optional.empty());
  }

  /**
   * Reads an {@code --algorithm} value.
   *
   * @throws IllegalArgumentException naming the value and the algorithms there are
   */
  public static Algorithm parse(String text) {
    return of(text);
  }

  /** The lower-case name used on the command line. */
  public String cliName() {
    return name;
  }

  /**
   * Whether the clients train with a proximal term (the algorithm's spec takes {@code
   * proximal_mu}, as FedProx's does), and so take {@code --mu}.
   */
  public boolean proximal() {
    return custom.isEmpty() && AlgorithmRegistry.installed().proximal(name);
  }

  /**
   * The command-line flag of a hyperparameter: its own flag, such as {@code --beta1} for {@code
   * beta_1}, or {@code --hp NAME} for one without (a registered algorithm's).
   */
  public static String flag(String hyperparameter) {
    return FLAGS.getOrDefault(hyperparameter, "--hp " + hyperparameter);
  }

  /** Whether {@code hyperparameter} has a flag of its own (else {@code --hp NAME=VALUE} sets it). */
  public static boolean hasOwnFlag(String hyperparameter) {
    return FLAGS.containsKey(hyperparameter);
  }

  /** The words that set the hyperparameters on the command line, such as {@code --beta1 0.9}. */
  public List<String> commandWords() {
    List<String> words = new ArrayList<>();
    hyperparameters.forEach((k, v) -> words.addAll(hasOwnFlag(k)
        ? List.of(flag(k), SimulationSettings.number(v))
        : List.of("--hp", k + "=" + SimulationSettings.number(v))));
    return words;
  }

  /**
   * A composed algorithm's parts as text, to record and compare ({@code mu}, {@code aggregator},
   * {@code server_optimizer}, and {@code topology} for one through edges); empty for an
   * algorithm the registry names. A part is its {@code toString} (a record's lists its values); a
   * part whose class keeps {@link Object}'s shows its class name only, so that the text stays
   * the same from run to run, and its values go unrecorded.
   */
  public SequencedMap<String, String> parts() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    custom.ifPresent(a -> {
      m.put("mu", SimulationSettings.number(a.mu()));
      m.put("aggregator", describe(a.aggregator()));
      m.put("server_optimizer", describe(a.serverOptimizer()));
      if (!(a.topology() instanceof Topology.Flat)) {
        // Only through edges: the files of flat algorithms stay as they were.
        m.put("topology", describe(a.topology()));
      }
    });
    return m;
  }

  private static String describe(Object part) {
    String text = String.valueOf(part);
    String plain = part.getClass().getName() + "@" + Integer.toHexString(part.hashCode());
    return text.equals(plain) ? part.getClass().getName() + " (values not recorded: no toString)"
        : text;
  }

  /** The suite's algorithm with these hyperparameters and the clients' proximal {@code mu}. */
  public FederatedAlgorithm federated(double mu) {
    if (custom.isPresent()) {
      return custom.get();
    }
    SequencedMap<String, Double> h = new LinkedHashMap<>(hyperparameters);
    if (proximal()) {
      h.put("proximal_mu", mu);
    }
    return Algorithms.named(name, h);
  }
}
