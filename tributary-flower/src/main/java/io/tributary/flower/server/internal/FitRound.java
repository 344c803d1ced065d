package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one fit invocation's client work needs to know, made by the round host for each round and
 * handed to the client work ({@link RemoteClientWork#open(FitRound, boolean)}), so that nothing
 * of a round is left in the work between rounds.
 *
 * @param round the round, from 1 (0 where there are no rounds, as on a relay)
 * @param clients the sampled clients
 * @param config the round's fit config, sent with every FitIns ({@link #config(Map, Map, int)})
 * @param relativeMaxExamples the round-relative bound on a client's example count ({@code
 *     Long.MAX_VALUE} for none): a larger claim counts as the bound
 * @param progress told of each client's answer or failure
 * @param secure the secure round that stands in for the clients, when fit aggregates securely
 */
public record FitRound(int round, List<RemoteClient> clients, Map<String, Scalar> config,
    long relativeMaxExamples, RoundProgress progress, Optional<SecureCohort> secure) {
  /** Copies the collections. */
  public FitRound {
    clients = List.copyOf(clients);
    config = Map.copyOf(config);
    if (relativeMaxExamples < 0) {
      throw new IllegalArgumentException("relativeMaxExamples must be non-negative, got "
          + relativeMaxExamples);
    }
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(secure, "secure");
  }

  /**
   * A round's fit config: the algorithm's entries, then those of the round (which win), and
   * {@code server_round}, the round from 1, as Flower's examples name it, unless given (a client
   * that shuffles by round, a TrainingClient repeating a simulation, reads it).
   */
  public static Map<String, Scalar> config(Map<String, Scalar> fixed,
      Map<String, Scalar> ofRound, int round) {
    Map<String, Scalar> c = new LinkedHashMap<>(fixed);
    c.putAll(ofRound);
    c.putIfAbsent("server_round", Scalar.of((long) round));
    return c;
  }

  /** The fit cohort's client values: the clients' ids, or the secure round's stand-ins. */
  public List<Tensor> cohort() {
    return secure.map(s -> s.values(clients.size())).orElseGet(() -> clients.stream()
        .map(c -> RemoteClientWork.clientValue(c.id())).toList());
  }
}
