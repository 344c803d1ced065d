package io.tributary.flower.server;

import io.tributary.flower.Scalar;
import java.util.Map;

/**
 * The server's algorithm: FedAvg, or FedProx with its proximal coefficient. Both run the same
 * round computation; FedProx differs in what the clients do, so, as Flower's FedProx strategy
 * does, the server only adds {@code proximal_mu} to every fit config.
 *
 * <p>Not a Flower {@code Strategy}: it names one of the built-in algorithms and holds their one
 * setting; the round itself is a federated computation ({@code tributary-learning}).
 *
 * @param name {@code fedavg} or {@code fedprox}
 * @param proximalMu FedProx's mu ({@code >= 0}); 0 for FedAvg
 */
public record ServerAlgorithm(String name, double proximalMu) {
  public ServerAlgorithm {
    if (!name.equals("fedavg") && !name.equals("fedprox")) {
      throw new IllegalArgumentException("unknown algorithm '" + name
          + "'; expected fedavg or fedprox");
    }
    if (!(proximalMu >= 0) || Double.isInfinite(proximalMu)) {
      throw new IllegalArgumentException("proximal mu must be a finite number >= 0, got "
          + proximalMu);
    }
    if (name.equals("fedavg") && proximalMu != 0) {
      throw new IllegalArgumentException("fedavg takes no proximal mu; use fedprox");
    }
  }

  /** FedAvg. */
  public static ServerAlgorithm fedAvg() {
    return new ServerAlgorithm("fedavg", 0);
  }

  /** FedProx with proximal coefficient {@code mu}. */
  public static ServerAlgorithm fedProx(double mu) {
    return new ServerAlgorithm("fedprox", mu);
  }

  /** The config sent with every FitIns: empty for FedAvg, {@code proximal_mu} for FedProx. */
  public Map<String, Scalar> fitConfig() {
    return name.equals("fedprox") ? Map.of("proximal_mu", Scalar.of(proximalMu)) : Map.of();
  }
}
