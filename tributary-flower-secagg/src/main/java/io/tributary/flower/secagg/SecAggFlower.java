package io.tributary.flower.secagg;

import io.tributary.flower.Scalar;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggRandomness;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.privacy.secagg.SecAggStage;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The layout of a SecAgg+ round over Flower's FitIns and FitRes messages, shared by the server
 * and {@link SecAggClientAdapter}.
 *
 * <p>Every stage is one FitIns/FitRes exchange. The FitIns config holds {@link #STAGE} (a string:
 * {@code advertise_keys}, {@code share_keys}, {@code masked_input} or {@code unmask}) and, from
 * the second stage on, {@link #MESSAGE}: the server's {@code SecAggMessage} for the client as
 * {@code SecAggWire} bytes. The first stage's config also holds the round's parameters
 * ({@link Parameters}); the third stage's FitIns alone carries the model, with the algorithm's
 * fit config. The FitRes metrics hold {@link #STAGE} and {@link #MESSAGE} (the client's
 * answer, {@code SecAggWire} bytes); its parameters are empty and its example count 0: the
 * client's example count travels masked, as the last element of its masked vector. A client
 * that finds a neighbour's shares tampered with answers the third stage with {@link #ACCUSED}
 * (the neighbour's id) and {@link #ERROR} instead of a message.
 */
public final class SecAggFlower {
  /** Config and metrics key: the stage, as {@link #stageName} writes it. */
  public static final String STAGE = "secagg_stage";
  /** Config and metrics key: a {@code SecAggWire}-encoded message (bytes). */
  public static final String MESSAGE = "secagg_message";
  /** Metrics key: the neighbour whose shares failed to decrypt or verify (int). */
  public static final String ACCUSED = "secagg_accused";
  /** Metrics key: why the client could not mask its input (string). */
  public static final String ERROR = "secagg_error";
  /** Config key: the client's id in the round, 0 to clients - 1 (int). */
  public static final String CLIENT = "secagg_client";
  /** Config key: the number of clients in the round (int). */
  public static final String CLIENTS = "secagg_clients";
  /** Config key: k, the neighbours of each client, adapted to the round's size (int). */
  public static final String NEIGHBOURS = "secagg_neighbours";
  /** Config key: t, the shares that recover a client's secrets (int). */
  public static final String THRESHOLD = "secagg_threshold";
  /** Config key: the bits of a quantized update element (int). */
  public static final String BITS = "secagg_bits";
  /** Config key: the bits of the example count a client weights its update with (int). */
  public static final String EXAMPLE_BITS = "secagg_example_bits";
  /** Config key: the clipping range c of the updates (double). */
  public static final String CLIP = "secagg_clip";
  /** Config key: the public seed of the round's communication graph (int). */
  public static final String GRAPH_SEED = "secagg_graph_seed";
  /** The most clients a round may have. */
  public static final int MAX_CLIENTS = 1 << 20;
  /**
   * The most edges ({@code clients * neighbours}) a round's communication graph may have: every
   * client builds the whole graph, so a hostile server's parameters must not make it allocate
   * more than this many ids (64 MiB).
   */
  public static final long MAX_GRAPH_EDGES = 1L << 24;

  private SecAggFlower() {}

  /** The wire name of a stage: its enum name in lower case. */
  public static String stageName(SecAggStage stage) {
    return stage.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The stage a wire name names.
   *
   * @throws IllegalArgumentException when it names none
   */
  public static SecAggStage stage(String name) {
    for (SecAggStage s : SecAggStage.values()) {
      if (stageName(s).equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no SecAgg+ stage is called '" + name + "'");
  }

  /**
   * The parameters of one client's part in a round, sent in the first stage's config.
   *
   * <p>A client's input is {@code m + 1} elements for a model of {@code m} parameters: element
   * {@code j < m} is {@code n * q_j}, where {@code q_j} is the {@code bits}-bit quantization of
   * the client's update element {@code j} clipped to {@code [-clip, clip]} and {@code n} its
   * example count capped at {@code 2^exampleBits - 1}; element {@code m} is {@code n}. The sum
   * of the inputs thus holds the example-weighted sum of the quantized updates and the total
   * examples.
   *
   * @param client the client's id in the round
   * @param clients the number of clients in the round, 2 to {@link #MAX_CLIENTS}
   * @param neighbours k, adapted to the round's size: 1 to {@code clients - 1}
   * @param threshold t, in {@code (k/2, k]}
   * @param bits the bits of a quantized element, 1 to 62
   * @param exampleBits the bits of the example count, 0 to 40; {@code bits + exampleBits} at
   *     most 62
   * @param clip the clipping range, positive and finite
   * @param graphSeed the public seed of the communication graph
   */
  public record Parameters(int client, int clients, int neighbours, int threshold, int bits,
      int exampleBits, double clip, long graphSeed) {
    public Parameters {
      require(clients >= 2 && clients <= MAX_CLIENTS, "clients must be 2 to " + MAX_CLIENTS
          + ", got " + clients);
      require(client >= 0 && client < clients, "client " + client + " of " + clients);
      require(neighbours >= 1 && neighbours < clients, "neighbours must be 1 to " + (clients - 1)
          + ", got " + neighbours);
      require((long) clients * neighbours <= MAX_GRAPH_EDGES, clients + " clients with "
          + neighbours + " neighbours each make a graph of over " + MAX_GRAPH_EDGES + " edges");
      require(threshold >= 1 && threshold <= neighbours && 2L * threshold > neighbours,
          "the threshold must be in (" + neighbours + "/2, " + neighbours + "], got "
          + threshold);
      require(bits >= 1 && bits <= 62, "bits must be 1 to 62, got " + bits);
      require(exampleBits >= 0 && exampleBits <= 40, "example bits must be 0 to 40, got "
          + exampleBits);
      require(bits + exampleBits <= 62, "bits + example bits must be at most 62, got "
          + (bits + exampleBits));
      require(clip > 0 && Double.isFinite(clip), "the clipping range must be positive and "
          + "finite, got " + clip);
    }

    /** The SecAgg+ settings these describe, with secure randomness and stochastic rounding. */
    public SecAggSettings settings() {
      return new SecAggSettings(neighbours, threshold, bits + exampleBits, clip,
          Rounding.STOCHASTIC, graphSeed, SecAggRandomness.secure());
    }

    /** The largest example count a client weights its update with. */
    public long maxExamples() {
      return (1L << exampleBits) - 1;
    }

    /** These parameters as config entries. */
    public Map<String, Scalar> toConfig() {
      Map<String, Scalar> c = new LinkedHashMap<>();
      c.put(CLIENT, Scalar.of((long) client));
      c.put(CLIENTS, Scalar.of((long) clients));
      c.put(NEIGHBOURS, Scalar.of((long) neighbours));
      c.put(THRESHOLD, Scalar.of((long) threshold));
      c.put(BITS, Scalar.of((long) bits));
      c.put(EXAMPLE_BITS, Scalar.of((long) exampleBits));
      c.put(CLIP, Scalar.of(clip));
      c.put(GRAPH_SEED, Scalar.of(graphSeed));
      return c;
    }

    /**
     * The parameters a config holds.
     *
     * @throws IllegalArgumentException when one is missing, of the wrong kind or out of range
     */
    public static Parameters fromConfig(Map<String, Scalar> config) {
      return new Parameters(intOf(config, CLIENT), intOf(config, CLIENTS),
          intOf(config, NEIGHBOURS), intOf(config, THRESHOLD), intOf(config, BITS),
          intOf(config, EXAMPLE_BITS), doubleOf(config, CLIP), longOf(config, GRAPH_SEED));
    }
  }

  /** Whether {@code key} belongs to the SecAgg+ layout (and is stripped before training). */
  public static boolean isSecAggKey(String key) {
    return key.startsWith("secagg_");
  }

  /**
   * The value of {@code key} in {@code config}, which must be an int.
   *
   * @throws IllegalArgumentException when it is missing or of another kind
   */
  public static long longOf(Map<String, Scalar> config, String key) {
    if (config.get(key) instanceof Scalar.Int i) {
      return i.value();
    }
    throw new IllegalArgumentException(key + " must be an int, got " + config.get(key));
  }

  /**
   * The value of {@code key} in {@code config}, which must be an int that fits 32 bits.
   *
   * @throws IllegalArgumentException when it is missing or of another kind
   */
  public static int intOf(Map<String, Scalar> config, String key) {
    long v = longOf(config, key);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " is out of range: " + v);
    }
    return (int) v;
  }

  /**
   * The value of {@code key} in {@code config}, which must be a double.
   *
   * @throws IllegalArgumentException when it is missing or of another kind
   */
  public static double doubleOf(Map<String, Scalar> config, String key) {
    if (config.get(key) instanceof Scalar.Double d) {
      return d.value();
    }
    throw new IllegalArgumentException(key + " must be a double, got " + config.get(key));
  }

  /**
   * The value of {@code key} in {@code config}, which must be bytes.
   *
   * @throws IllegalArgumentException when it is missing or of another kind
   */
  public static byte[] bytesOf(Map<String, Scalar> config, String key) {
    if (config.get(key) instanceof Scalar.Bytes b) {
      return b.value();
    }
    throw new IllegalArgumentException(key + " must be bytes, got " + config.get(key));
  }

  /**
   * The value of {@code key} in {@code config}, which must be a string.
   *
   * @throws IllegalArgumentException when it is missing or of another kind
   */
  public static String stringOf(Map<String, Scalar> config, String key) {
    if (config.get(key) instanceof Scalar.Str s) {
      return s.value();
    }
    throw new IllegalArgumentException(key + " must be a string, got " + config.get(key));
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
