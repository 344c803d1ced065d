package io.tributary.flower.secagg;

import io.tributary.flower.passes.SecurePassMessages;
import io.tributary.privacy.secagg.Rounding;
import io.tributary.privacy.secagg.SecAggRandomness;
import io.tributary.privacy.secagg.SecAggSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The entries of a secure pass's SecAgg+ stages, in both directions: the stage's name, the
 * pass's session (its graph seed), and in the first stage the round's parameters; each stage's
 * {@link io.tributary.privacy.secagg.SecAggWire} message under {@link SecAggFlower#MESSAGE}.
 * The keys are {@link SecAggFlower}'s, which carries the same stages in FitIns/FitRes.
 */
final class SecAggPassWire {
  /** Stage 1: the node draws its keys and advertises their public halves. */
  static final String ADVERTISE = "advertise_keys";
  /** Stage 2: the node shares its secrets with its neighbours, given their keys. */
  static final String SHARE = "share_keys";
  /** Stage 3: the node computes its client and masks the client's secure-sum input. */
  static final String MASK = "masked_input";
  /** Stage 4: the node reveals the shares that unmask the survivors' sum. */
  static final String UNMASK = "unmask";

  private SecAggPassWire() {}

  /** A stage's entries for {@code session}, with {@code message} when not null. */
  static Map<String, Object> stage(String stage, long session, byte[] message) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(SecAggFlower.STAGE, stage);
    out.put(SecAggFlower.GRAPH_SEED, session);
    if (message != null) {
      out.put(SecAggFlower.MESSAGE, message);
    }
    return out;
  }

  /** The first stage's entries: the round's parameters for client {@code client}. */
  static Map<String, Object> advertise(int client, int clients, SecAggSettings s) {
    Map<String, Object> out = stage(ADVERTISE, s.graphSeed(), null);
    out.put(SecAggFlower.CLIENT, (long) client);
    out.put(SecAggFlower.CLIENTS, (long) clients);
    out.put(SecAggFlower.NEIGHBOURS, (long) s.neighbours());
    out.put(SecAggFlower.THRESHOLD, (long) s.threshold());
    out.put(SecAggFlower.BITS, (long) s.inputBits());
    return out;
  }

  /**
   * The round's parameters the first stage carries, every one bounded before anything is
   * allocated: the client's index and the settings.
   *
   * @throws IllegalArgumentException naming the entry that is missing, of the wrong kind or out
   *     of range
   */
  static Round round(Map<String, Object> v) {
    int clients = bounded(v, SecAggFlower.CLIENTS, 2, SecAggFlower.MAX_CLIENTS);
    int client = bounded(v, SecAggFlower.CLIENT, 0, clients - 1);
    int neighbours = bounded(v, SecAggFlower.NEIGHBOURS, 1, clients - 1);
    if ((long) clients * neighbours > SecAggFlower.MAX_GRAPH_EDGES) {
      throw new IllegalArgumentException(clients + " clients with " + neighbours
          + " neighbours each make a graph of over " + SecAggFlower.MAX_GRAPH_EDGES + " edges");
    }
    int threshold = bounded(v, SecAggFlower.THRESHOLD, 1, neighbours);
    int bits = bounded(v, SecAggFlower.BITS, 1, 63);
    long seed = SecurePassMessages.longOf(v, SecAggFlower.GRAPH_SEED);
    // The settings check the threshold against the neighbours.
    return new Round(client, clients, new SecAggSettings(neighbours, threshold, bits, 1.0,
        Rounding.STOCHASTIC, seed, SecAggRandomness.secure()));
  }

  /** A client's part in a round: its index, the round's size and settings. */
  record Round(int client, int clients, SecAggSettings settings) {}

  private static int bounded(Map<String, Object> v, String key, long min, long max) {
    long x = SecurePassMessages.longOf(v, key);
    if (x < min || x > max) {
      throw new IllegalArgumentException(key + " must be " + min + " to " + max + ", got " + x);
    }
    return (int) x;
  }
}
