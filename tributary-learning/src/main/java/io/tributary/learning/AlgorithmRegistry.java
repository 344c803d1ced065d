package io.tributary.learning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The algorithms found by name: every {@link AlgorithmSpec} on the class path, the suite's first
 * in Flower's order, then the others by name. A registry is immutable; {@link #installed()} is the
 * one of the class path Tributary was loaded from, and {@link #load(ClassLoader)} or {@link
 * #of(List)} make others (a plug-in's class loader, a test's own list).
 */
public final class AlgorithmRegistry {
  private final SequencedMap<String, AlgorithmSpec> specs;

  private AlgorithmRegistry(SequencedMap<String, AlgorithmSpec> specs) {
    this.specs = Collections.unmodifiableSequencedMap(specs);
  }

  /**
   * A registry of exactly these specs, in this order.
   *
   * @throws IllegalArgumentException when two specs share a name or a name is not lower case
   */
  public static AlgorithmRegistry of(List<? extends AlgorithmSpec> specs) {
    SequencedMap<String, AlgorithmSpec> m = new LinkedHashMap<>();
    for (AlgorithmSpec s : specs) {
      String name = Objects.requireNonNull(s.name(), "name");
      if (!name.matches("[a-z][a-z0-9_-]{0,63}")) {
        throw new IllegalArgumentException("algorithm " + s.getClass().getName() + ": its name "
            + "must be a lower-case identifier of at most 64 characters, got '" + name + "'");
      }
      AlgorithmSpec before = m.putIfAbsent(name, s);
      if (before != null) {
        throw new IllegalArgumentException("two algorithms are named '" + name + "': "
            + before.getClass().getName() + " and " + s.getClass().getName());
      }
    }
    return new AlgorithmRegistry(m);
  }

  /**
   * The specs {@code loader} lists in {@code META-INF/services/io.tributary.learning.AlgorithmSpec}:
   * the suite's in their listed order, then the others sorted by name.
   *
   * @throws IllegalArgumentException when a listed class cannot be loaded or two share a name
   */
  public static AlgorithmRegistry load(ClassLoader loader) {
    List<AlgorithmSpec> suite = new ArrayList<>();
    List<AlgorithmSpec> others = new ArrayList<>();
    try {
      for (AlgorithmSpec s : ServiceLoader.load(AlgorithmSpec.class, loader)) {
        (s.getClass().getPackageName().equals(SUITE_PACKAGE) ? suite : others).add(s);
      }
    } catch (ServiceConfigurationError e) {
      throw new IllegalArgumentException("an algorithm listed in META-INF/services/"
          + AlgorithmSpec.class.getName() + " cannot be loaded: " + e.getMessage(), e);
    }
    // of() refuses two specs with one name, naming both classes.
    others.sort(Comparator.comparing(AlgorithmSpec::name));
    List<AlgorithmSpec> all = new ArrayList<>(suite);
    all.addAll(others);
    return of(all);
  }

  private static final String SUITE_PACKAGE = "io.tributary.learning.suite";

  /** Loaded once, when first asked for: the class path does not change while a JVM runs. */
  private static final class Installed {
    static final AlgorithmRegistry REGISTRY = load(loader());

    private static ClassLoader loader() {
      ClassLoader context = Thread.currentThread().getContextClassLoader();
      return context != null ? context : AlgorithmRegistry.class.getClassLoader();
    }
  }

  /** The algorithms of the class path: the suite and every spec a jar on it registers. */
  public static AlgorithmRegistry installed() {
    return Installed.REGISTRY;
  }

  /** Every spec, in the registry's order. */
  public List<AlgorithmSpec> specs() {
    return List.copyOf(specs.values());
  }

  /** Whether an algorithm is named {@code name} (in any case). */
  public boolean contains(String name) {
    return specs.containsKey(name.toLowerCase(Locale.ROOT));
  }

  /**
   * Whether the algorithm {@code name} is registered and its clients train with a proximal term:
   * its spec takes {@code proximal_mu}, as FedProx's does.
   */
  public boolean proximal(String name) {
    return contains(name) && defaults(name).containsKey("proximal_mu");
  }

  /**
   * The spec named {@code name} (in any case).
   *
   * @throws IllegalArgumentException naming the known algorithms when there is none
   */
  public AlgorithmSpec spec(String name) {
    AlgorithmSpec s = specs.get(name.toLowerCase(Locale.ROOT));
    if (s == null) {
      throw new IllegalArgumentException("unknown algorithm '" + (name.length() <= 64 ? name
          : name.substring(0, 64) + "...(" + name.length() + " chars)") + "'; known: "
          + String.join(", ", specs.keySet()));
    }
    return s;
  }

  /** Every algorithm's one-line description, by name, in the registry's order. */
  public SequencedMap<String, String> descriptions() {
    SequencedMap<String, String> out = new LinkedHashMap<>();
    specs.forEach((k, v) -> out.put(k, v.description()));
    return out;
  }

  /**
   * The hyperparameters {@code name} takes, with their defaults, in the spec's order.
   *
   * @throws IllegalArgumentException naming the known algorithms when there is none
   */
  public SequencedMap<String, Double> defaults(String name) {
    SequencedMap<String, Double> m = new LinkedHashMap<>();
    for (Hyperparameter h : spec(name).hyperparameters()) {
      m.put(h.name(), h.defaultValue());
    }
    return Collections.unmodifiableSequencedMap(m);
  }

  /**
   * The algorithm {@code name} with {@code given} in place of the defaults; it remembers the
   * spec and every value ({@link FederatedAlgorithm#registration}).
   *
   * @throws IllegalArgumentException naming the algorithm and what is wrong: an unknown name, a
   *     hyperparameter it does not take, a value out of range
   */
  public FederatedAlgorithm build(String name, Map<String, Double> given) {
    AlgorithmSpec spec = spec(name);
    String key = spec.name();
    SequencedMap<String, Double> values = new LinkedHashMap<>();
    for (Hyperparameter h : spec.hyperparameters()) {
      values.put(h.name(), h.defaultValue());
    }
    for (String k : new TreeMap<>(given).keySet()) {
      if (!values.containsKey(k)) {
        throw new IllegalArgumentException(key + " has no hyperparameter '" + k + "'; it takes "
            + (values.isEmpty() ? "none" : String.join(", ", values.keySet())));
      }
    }
    try {
      for (Hyperparameter h : spec.hyperparameters()) {
        Double v = given.get(h.name());
        if (v != null) {
          values.put(h.name(), h.check(v));
        }
      }
      SequencedMap<String, Double> checked = Collections.unmodifiableSequencedMap(values);
      return Objects.requireNonNull(spec.build(checked),
          () -> key + ": its spec built no algorithm").registered(key, checked);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
    }
  }
}
