package io.tributary.graph.local;

import java.util.Objects;

/**
 * The settings of a client update: local training with a client optimizer, plain SGD unless
 * another is given.
 *
 * @param epochs passes over the client's data, at least 1
 * @param batchSize examples per step; 0 keeps the batches of the data sequence as they come,
 *     a positive size regroups the client's examples, in order, into batches of that size (the
 *     last holds the remainder)
 * @param learningRate the optimizer's step size, positive and finite
 * @param mu the FedProx proximal coefficient, {@code >= 0}; 0 is plain FedAvg
 * @param optimizer the client optimizer; its state starts afresh at every client update
 */
public record ClientUpdateConfig(int epochs, int batchSize, double learningRate, double mu,
    ClientOptimizer optimizer) {
  /** The most epochs one client update may run, so a typo cannot make a round run for days. */
  public static final int MAX_EPOCHS = 10_000;

  public ClientUpdateConfig {
    if (epochs < 1 || epochs > MAX_EPOCHS) {
      throw new IllegalArgumentException(
          "epochs must be in [1, " + MAX_EPOCHS + "], got " + epochs);
    }
    if (batchSize < 0) {
      throw new IllegalArgumentException("batch size must be >= 0 (0: as given), got " + batchSize);
    }
    if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
      throw new IllegalArgumentException(
          "learning rate must be positive and finite, got " + learningRate);
    }
    if (!(mu >= 0) || !Double.isFinite(mu)) {
      throw new IllegalArgumentException("mu must be >= 0 and finite, got " + mu);
    }
    Objects.requireNonNull(optimizer, "optimizer");
  }

  /** A client update with plain SGD. */
  public ClientUpdateConfig(int epochs, int batchSize, double learningRate, double mu) {
    this(epochs, batchSize, learningRate, mu, ClientOptimizer.sgd());
  }

  /** These settings with another client optimizer. */
  public ClientUpdateConfig withOptimizer(ClientOptimizer newOptimizer) {
    return new ClientUpdateConfig(epochs, batchSize, learningRate, mu, newOptimizer);
  }

  /** FedAvg's client update: no proximal term. */
  public static ClientUpdateConfig fedAvg(int epochs, int batchSize, double learningRate) {
    return new ClientUpdateConfig(epochs, batchSize, learningRate, 0);
  }

  /** FedProx's client update with proximal coefficient {@code mu}. */
  public static ClientUpdateConfig fedProx(int epochs, int batchSize, double learningRate,
      double mu) {
    return new ClientUpdateConfig(epochs, batchSize, learningRate, mu);
  }
}
