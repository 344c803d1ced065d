package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.flower.server.RoundFitConfig;

import io.tributary.learning.FederatedAlgorithm;
import java.util.Map;
import java.util.Objects;

/**
 * The server binding's view of its {@link FederatedAlgorithm} (the registry's by name, or one
 * composed in code), given by {@code ServerConfig}: its round is the algorithm's own federated
 * {@code next}, run with CLIENTS bound to the connected clients; the client work is theirs, so
 * the server only tells them what they must do differently, as Flower's FedProx strategy does: {@code
 * proximal_mu} in every fit config when the algorithm has one; with an aggregator that asks the
 * clients to clip ({@link io.tributary.learning.aggregation.Aggregator#clientClipping},
 * client-side differential privacy), {@code clipping_norm}, which Flower's {@code
 * fixedclipping_mod} reads, and {@code local_noise_stddev}; and any further entries given.
 *
 * <p>Entries that change from round to round come from the server state before the round
 * ({@link #roundConfig}): client-side adaptive clipping sends each round's {@code
 * clipping_norm}, which the aggregator's state holds.
 *
 * @param algorithm the algorithm
 * @param extraFitConfig further entries of every fit config
 * @param roundFitConfig entries computed from the state before each round (they win over the
 *     others)
 */
public record ServerAlgorithm(FederatedAlgorithm algorithm, Map<String, Scalar> extraFitConfig,
    RoundFitConfig roundFitConfig) {
  /** The fit-config key of the clients' clipping norm, which Flower's clipping mods read. */
  public static final String CLIPPING_NORM = "clipping_norm";
  /** The fit-config key of the clients' local noise, which Tributary's clients read. */
  public static final String LOCAL_NOISE_STDDEV = "local_noise_stddev";

  /**
   * Copies the map.
   *
   * @throws IllegalArgumentException when the algorithm aggregates through edges (its topology
   *     is not flat)
   */
  public ServerAlgorithm {
    Objects.requireNonNull(algorithm, "algorithm");
    if (!(algorithm.topology() instanceof io.tributary.learning.Topology.Flat)) {
      // A server's clients report to it directly; a deployment's edges are relays, each of
      // which answers as one client.
      throw new IllegalArgumentException(algorithm.name() + " aggregates through edges, which "
          + "a server's round does not have: simulate it, or put relays (io.tributary.flower.relay) "
          + "in front of a server running a flat algorithm such as fedavg");
    }
    extraFitConfig = Map.copyOf(extraFitConfig);
    Objects.requireNonNull(roundFitConfig, "roundFitConfig");
  }

  /** The algorithm with fixed further fit config. */
  public ServerAlgorithm(FederatedAlgorithm algorithm, Map<String, Scalar> extraFitConfig) {
    this(algorithm, extraFitConfig, RoundFitConfig.none());
  }

  /** The algorithm with no further fit config. */
  public ServerAlgorithm(FederatedAlgorithm algorithm) {
    this(algorithm, Map.of());
  }

  /**
   * The entries of the fit config of the round that starts from {@code state}, the algorithm's
   * server state: with client-side adaptive clipping, the round's {@code clipping_norm} (the
   * aggregator's state holds it), and {@link #roundFitConfig}'s entries, which win.
   */
  public Map<String, Scalar> roundConfig(io.tributary.core.values.StructValue state) {
    Map<String, Scalar> c = new java.util.LinkedHashMap<>();
    algorithm.aggregator().clientClipping().filter(k -> k.adaptiveNorm().isPresent())
        .ifPresent(k -> c.put(CLIPPING_NORM, Scalar.of(k.normFor(state.struct("aggregator")))));
    c.putAll(roundFitConfig.of(state));
    return Map.copyOf(c);
  }

  /** The algorithm's name, such as {@code fedadam}. */
  public String name() {
    return algorithm.name();
  }

  /** The proximal coefficient the clients are asked to train with; 0 for none. */
  public double proximalMu() {
    return algorithm.mu();
  }

  /**
   * The config sent with every FitIns: {@code proximal_mu} when the algorithm has one (a mu
   * above 0, or a registered algorithm whose spec takes {@code proximal_mu}, as FedProx's does,
   * whose clients expect the entry even at 0, as Flower's FedProx sends it), and the further
   * entries.
   */
  public Map<String, Scalar> fitConfig() {
    Map<String, Scalar> c = new java.util.LinkedHashMap<>();
    algorithm.aggregator().clientClipping().ifPresent(k -> {
      c.put(CLIPPING_NORM, Scalar.of(k.norm()));
      if (k.localNoiseStddev() > 0) {
        c.put(LOCAL_NOISE_STDDEV, Scalar.of(k.localNoiseStddev()));
      }
    });
    c.putAll(extraFitConfig);
    if (algorithm.proximal()) {
      c.put("proximal_mu", Scalar.of(algorithm.mu()));
    }
    return Map.copyOf(c);
  }
}
