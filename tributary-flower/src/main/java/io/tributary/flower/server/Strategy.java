package io.tributary.flower.server;

import io.tributary.flower.Scalar;
import java.util.Map;

/**
 * The server's algorithm: FedAvg, or FedProx with its proximal coefficient. Both run the same
 * round computation; FedProx differs in what the clients do, so, as Flower's FedProx strategy
 * does, the server only adds {@code proximal_mu} to every fit config.
 *
 * @param name {@code fedavg} or {@code fedprox}
 * @param proximalMu FedProx's mu ({@code >= 0}); 0 for FedAvg
 */
public record Strategy(String name, double proximalMu) {
  public Strategy {
    if (!name.equals("fedavg") && !name.equals("fedprox")) {
      throw new IllegalArgumentException("unknown strategy '" + name
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

  public static Strategy fedAvg() {
    return new Strategy("fedavg", 0);
  }

  public static Strategy fedProx(double mu) {
    return new Strategy("fedprox", mu);
  }

  /** The config sent with every FitIns: empty for FedAvg, {@code proximal_mu} for FedProx. */
  public Map<String, Scalar> fitConfig() {
    return name.equals("fedprox") ? Map.of("proximal_mu", Scalar.of(proximalMu)) : Map.of();
  }
}
