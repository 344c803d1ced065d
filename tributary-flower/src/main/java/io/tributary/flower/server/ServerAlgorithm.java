package io.tributary.flower.server;

import io.tributary.flower.Scalar;
import io.tributary.learning.Algorithms;
import io.tributary.learning.FederatedAlgorithm;
import java.util.Map;
import java.util.Objects;

/**
 * The server's algorithm: any {@link FederatedAlgorithm} (Flower's suite by name from {@link
 * Algorithms}, or one composed in code). Its round is the algorithm's own federated {@code next},
 * run with CLIENTS bound to the connected clients; the client work is theirs, so the server only
 * tells them what they must do differently, as Flower's FedProx strategy does: {@code
 * proximal_mu} in every fit config when the algorithm has one.
 *
 * @param algorithm the algorithm
 */
public record ServerAlgorithm(FederatedAlgorithm algorithm) {
  public ServerAlgorithm {
    Objects.requireNonNull(algorithm, "algorithm");
  }

  /** FedAvg. */
  public static ServerAlgorithm fedAvg() {
    return new ServerAlgorithm(FederatedAlgorithm.fedAvg());
  }

  /** FedProx with proximal coefficient {@code mu}. */
  public static ServerAlgorithm fedProx(double mu) {
    return new ServerAlgorithm(Algorithms.named("fedprox", Map.of("proximal_mu", mu)));
  }

  /** The algorithm's name, such as {@code fedadam}. */
  public String name() {
    return algorithm.name();
  }

  /** The proximal coefficient the clients are asked to train with; 0 for none. */
  public double proximalMu() {
    return algorithm.mu();
  }

  /** The config sent with every FitIns: {@code proximal_mu} when the algorithm has one. */
  public Map<String, Scalar> fitConfig() {
    return algorithm.mu() > 0 || algorithm.name().equals("fedprox")
        ? Map.of("proximal_mu", Scalar.of(algorithm.mu())) : Map.of();
  }
}
