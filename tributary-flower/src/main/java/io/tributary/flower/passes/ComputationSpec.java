package io.tributary.flower.passes;

import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import io.tributary.flower.Scalar;
import io.tributary.learning.FederatedAlgorithm;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * What a node needs to rebuild the server's round computation, as it travels in a message's
 * config (a Fleet message's {@code config} record, a FitIns's config): the algorithm's name, its
 * registry hyperparameters, the model's type, the server's bound on a client's example count and
 * the fingerprint of the server's computation.
 *
 * <p>The keys ({@link #toConfig} writes them, {@link #fromConfig} reads and checks them):
 *
 * <ul>
 *   <li>{@value #VERSION} (int): the client-pass protocol version, {@value
 *       ClientPasses#PROTOCOL_VERSION}; another is refused.</li>
 *   <li>{@value #ALGORITHM} (string): the algorithm's name, a lower-case identifier of at most
 *       64 characters.</li>
 *   <li>{@value #REGISTERED} (bool): whether the name is the algorithm registry's ({@code
 *       io.tributary.learning.AlgorithmRegistry}), built from the hyperparameters, or an
 *       algorithm composed in code (such as one with {@code DpAggregator.withSecureSum}), which
 *       the node must hold under the same name.</li>
 *   <li>{@value #HYPERPARAMETER_PREFIX}{@code NAME} (double): each hyperparameter of a
 *       registered algorithm, every one of its spec's; at most {@value #MAX_HYPERPARAMETERS}.</li>
 *   <li>{@value #MODEL_TYPE} (string): the model's type as Tributary prints it, such as {@code
 *       <float32[3],float32>}: a struct of floating-point tensors of known shape; at most
 *       {@value #MAX_MODEL_TYPE_CHARS} characters and {@value #MAX_MODEL_TENSORS} tensors.</li>
 *   <li>{@value #MAX_EXAMPLES} (int): the largest example count a client is weighted with,
 *       at least 1.</li>
 *   <li>{@value #FINGERPRINT} (string): {@link ComputationFingerprint} of the server's
 *       process.</li>
 * </ul>
 *
 * <p>Other keys are the round's own fit config and are left alone.
 *
 * @param algorithm the algorithm's name
 * @param registered whether {@code algorithm} names a registry spec
 * @param hyperparameters a registered algorithm's hyperparameter values, by name; empty for one
 *     composed in code
 * @param modelType the model's type: an unnamed struct of floating-point tensors of known shape
 * @param maxExamples the server's bound on a client's example count
 * @param fingerprint the fingerprint of the server's process
 */
public record ComputationSpec(String algorithm, boolean registered,
    SequencedMap<String, Double> hyperparameters, StructType modelType, long maxExamples,
    ComputationFingerprint fingerprint) {
  /** The key of the client-pass protocol version. */
  public static final String VERSION = "tributary.passes.version";
  /** The key of the algorithm's name. */
  public static final String ALGORITHM = "tributary.algorithm";
  /** The key saying whether the algorithm is the registry's. */
  public static final String REGISTERED = "tributary.algorithm.registered";
  /** The prefix of each hyperparameter's key. */
  public static final String HYPERPARAMETER_PREFIX = "tributary.hp.";
  /** The key of the model's type. */
  public static final String MODEL_TYPE = "tributary.model_type";
  /** The key of the bound on a client's example count. */
  public static final String MAX_EXAMPLES = "tributary.max_examples";
  /** The key of the server's computation fingerprint. */
  public static final String FINGERPRINT = "tributary.fingerprint";
  /** The most hyperparameters a spec carries. */
  public static final int MAX_HYPERPARAMETERS = 64;
  /** The longest model type, in characters. */
  public static final int MAX_MODEL_TYPE_CHARS = 1 << 16;
  /** The most tensors a model type holds. */
  public static final int MAX_MODEL_TENSORS = 4096;

  private static final String NAME = "[a-z][a-z0-9_-]{0,63}";
  private static final String HYPERPARAMETER = "[a-z][a-z0-9_]{0,63}";

  /**
   * Checks the spec.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public ComputationSpec {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(fingerprint, "fingerprint");
    if (!algorithm.matches(NAME)) {
      throw new IllegalArgumentException("the algorithm's name must be a lower-case "
          + "identifier of at most 64 characters, got '" + shorten(algorithm) + "'");
    }
    if (hyperparameters.size() > MAX_HYPERPARAMETERS) {
      throw new IllegalArgumentException("at most " + MAX_HYPERPARAMETERS
          + " hyperparameters, got " + hyperparameters.size());
    }
    if (!registered && !hyperparameters.isEmpty()) {
      throw new IllegalArgumentException("an algorithm composed in code has no registry "
          + "hyperparameters, got " + hyperparameters.keySet());
    }
    hyperparameters.forEach((k, v) -> {
      if (!k.matches(HYPERPARAMETER) || !Double.isFinite(v)) {
        throw new IllegalArgumentException("hyperparameter '" + shorten(k) + "' = " + v
            + ": names are lower-case identifiers, values finite");
      }
    });
    hyperparameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(hyperparameters));
    String problem = modelProblem(Objects.requireNonNull(modelType, "modelType"));
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    if (maxExamples < 1) {
      throw new IllegalArgumentException("max examples must be at least 1, got " + maxExamples);
    }
  }

  /**
   * The spec of {@code algorithm} on a model of {@code modelType} with {@code fingerprint} (the
   * server's process's): a registered algorithm by its spec's name and every hyperparameter,
   * one composed in code by its name alone.
   */
  public static ComputationSpec of(FederatedAlgorithm algorithm, StructType modelType,
      long maxExamples, ComputationFingerprint fingerprint) {
    return algorithm.registration().map(r -> new ComputationSpec(r.spec(), true,
        r.hyperparameters(), modelType, maxExamples, fingerprint)).orElseGet(() ->
        new ComputationSpec(algorithm.name(), false, new LinkedHashMap<>(), modelType,
            maxExamples, fingerprint));
  }

  /** The spec's config entries, under the keys above, for a fit config. */
  public SequencedMap<String, Scalar> toConfig() {
    SequencedMap<String, Scalar> c = new LinkedHashMap<>();
    c.put(VERSION, Scalar.of(ClientPasses.PROTOCOL_VERSION));
    c.put(ALGORITHM, Scalar.of(algorithm));
    c.put(REGISTERED, Scalar.of(registered));
    hyperparameters.forEach((k, v) -> c.put(HYPERPARAMETER_PREFIX + k, Scalar.of(v)));
    c.put(MODEL_TYPE, Scalar.of(Types.print(modelType)));
    c.put(MAX_EXAMPLES, Scalar.of(maxExamples));
    c.put(FINGERPRINT, Scalar.of(fingerprint.value()));
    return c;
  }

  /**
   * The spec in {@code config}: a fit config of {@link Scalar}s, or a Flower config record's
   * values ({@code String}, {@code Long}, {@code Double}, {@code Boolean}); keys outside the spec
   * are ignored.
   *
   * @throws ComputationSpecException naming the key when one is missing, of the wrong type, over
   *     its bound or not a value the spec takes
   */
  public static ComputationSpec fromConfig(Map<String, ?> config)
      throws ComputationSpecException {
    long version = integer(config, VERSION);
    if (version != ClientPasses.PROTOCOL_VERSION) {
      throw new ComputationSpecException(VERSION, "the server speaks client-pass protocol "
          + "version " + version + ", this node " + ClientPasses.PROTOCOL_VERSION);
    }
    String algorithm = text(config, ALGORITHM, 64);
    if (!algorithm.matches(NAME)) {
      throw new ComputationSpecException(ALGORITHM, "not a lower-case identifier of at most 64 "
          + "characters: '" + shorten(algorithm) + "'");
    }
    boolean registered = switch (value(config, REGISTERED)) {
      case Boolean b -> b;
      case Scalar.Bool b -> b.value();
      case Object o -> throw wrongType(REGISTERED, "a bool", o);
    };
    SequencedMap<String, Double> hyperparameters = new LinkedHashMap<>();
    // Sorted, so that the spec (and a refusal naming its first bad key) does not depend on the
    // order a map of the wire happens to iterate in.
    for (Map.Entry<String, ?> e : new TreeMap<String, Object>(config).entrySet()) {
      if (!e.getKey().startsWith(HYPERPARAMETER_PREFIX)) {
        continue;
      }
      String name = e.getKey().substring(HYPERPARAMETER_PREFIX.length());
      if (hyperparameters.size() == MAX_HYPERPARAMETERS) {
        throw new ComputationSpecException(e.getKey(), "more than " + MAX_HYPERPARAMETERS
            + " hyperparameters");
      }
      if (!name.matches(HYPERPARAMETER)) {
        throw new ComputationSpecException(shorten(e.getKey()), "not a hyperparameter name "
            + "(a lower-case identifier of at most 64 characters)");
      }
      double v = real(e.getKey(), e.getValue());
      hyperparameters.put(name, v);
    }
    if (!registered && !hyperparameters.isEmpty()) {
      throw new ComputationSpecException(HYPERPARAMETER_PREFIX + hyperparameters.firstEntry()
          .getKey(), "an algorithm composed in code takes no registry hyperparameters");
    }
    String typeText = text(config, MODEL_TYPE, MAX_MODEL_TYPE_CHARS);
    Type parsed;
    try {
      parsed = Types.parse(typeText);
    } catch (IllegalArgumentException e) {
      throw new ComputationSpecException(MODEL_TYPE, "not a type: " + e.getMessage());
    }
    if (!(parsed instanceof StructType modelType)) {
      throw new ComputationSpecException(MODEL_TYPE, "not a struct of tensors: "
          + shorten(typeText));
    }
    String problem = modelProblem(modelType);
    if (problem != null) {
      throw new ComputationSpecException(MODEL_TYPE, problem);
    }
    long maxExamples = integer(config, MAX_EXAMPLES);
    if (maxExamples < 1) {
      throw new ComputationSpecException(MAX_EXAMPLES, "must be at least 1, got " + maxExamples);
    }
    ComputationFingerprint fingerprint;
    try {
      fingerprint = new ComputationFingerprint(text(config, FINGERPRINT, 80));
    } catch (IllegalArgumentException e) {
      throw new ComputationSpecException(FINGERPRINT, e.getMessage(), e);
    }
    return new ComputationSpec(algorithm, registered, hyperparameters, modelType, maxExamples,
        fingerprint);
  }

  /** Why {@code type} is not a model's type, or null when it is. */
  private static String modelProblem(StructType type) {
    if (type.size() == 0 || type.size() > MAX_MODEL_TENSORS) {
      return "a model holds 1 to " + MAX_MODEL_TENSORS + " tensors, got " + type.size();
    }
    for (int i = 0; i < type.size(); i++) {
      StructType.Element e = type.elements().get(i);
      if (e.name().isPresent() || !(e.type() instanceof TensorType t)
          || !t.dtype().isFloating() || !t.isFullyDefined()) {
        return "tensor " + i + " of the model is " + e.type() + ", not an unnamed "
            + "floating-point tensor of known shape";
      }
    }
    return null;
  }

  private static Object value(Map<String, ?> config, String key)
      throws ComputationSpecException {
    Object v = config.get(key);
    if (v == null) {
      throw new ComputationSpecException(key, "missing from the config");
    }
    return v;
  }

  private static String text(Map<String, ?> config, String key, int maxChars)
      throws ComputationSpecException {
    String s = switch (value(config, key)) {
      case String x -> x;
      case Scalar.Str x -> x.value();
      case Object o -> throw wrongType(key, "a string", o);
    };
    if (s.length() > maxChars) {
      throw new ComputationSpecException(key, "longer than " + maxChars + " characters ("
          + s.length() + ")");
    }
    return s;
  }

  private static long integer(Map<String, ?> config, String key)
      throws ComputationSpecException {
    return switch (value(config, key)) {
      case Long x -> x;
      case Integer x -> x;
      case Scalar.Int x -> x.value();
      case Scalar.UInt x when x.bits() >= 0 -> x.bits();
      case BigInteger x when x.bitLength() < 64 -> x.longValue();
      case Object o -> throw wrongType(key, "an integer", o);
    };
  }

  private static double real(String key, Object value) throws ComputationSpecException {
    double v = switch (value) {
      case Double x -> x;
      case Long x -> x;
      case Scalar.Double x -> x.value();
      case Scalar.Int x -> x.value();
      case Object o -> throw wrongType(key, "a number", o);
    };
    if (!Double.isFinite(v)) {
      throw new ComputationSpecException(key, "must be finite, got " + v);
    }
    return v;
  }

  private static ComputationSpecException wrongType(String key, String expected, Object got) {
    String kind = got instanceof Scalar s ? s.getClass().getSimpleName().toLowerCase(
        java.util.Locale.ROOT) : got.getClass().getSimpleName();
    return new ComputationSpecException(key, "must be " + expected + ", got a " + kind);
  }

  private static String shorten(String s) {
    return s.length() <= 64 ? s : s.substring(0, 64) + "...(" + s.length() + " chars)";
  }
}
