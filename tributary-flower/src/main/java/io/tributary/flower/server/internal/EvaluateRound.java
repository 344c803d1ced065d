package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.learning.rounds.RoundProgress;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one evaluate invocation's client work needs to know, made by the round host and handed
 * to the client work ({@link RemoteClientWork#open(EvaluateRound, boolean)}).
 *
 * @param round the round, from 1 (0 where there are no rounds, as on a relay)
 * @param clients the clients asked to evaluate
 * @param config the config sent with every EvaluateIns
 * @param progress told of each client's answer or failure
 */
public record EvaluateRound(int round, List<RemoteClient> clients, Map<String, Scalar> config,
    RoundProgress progress) {
  /** Copies the collections. */
  public EvaluateRound {
    clients = List.copyOf(clients);
    config = Map.copyOf(config);
    Objects.requireNonNull(progress, "progress");
  }
}
