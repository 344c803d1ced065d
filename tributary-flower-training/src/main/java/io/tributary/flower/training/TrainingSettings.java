package io.tributary.flower.training;

import io.tributary.graph.local.ClientUpdateConfig;

/**
 * A {@link TrainingClient}'s own settings, used when the server's config does not say otherwise.
 *
 * @param localEpochs passes over the partition per fit, in [1, {@value
 *     ClientUpdateConfig#MAX_EPOCHS}]
 * @param batchSize examples per SGD step, at least 1
 * @param learningRate the SGD step size, positive and finite
 * @param proximalMu the FedProx coefficient, {@code >= 0} (0: FedAvg)
 * @param seed the seed of the initial model and of each fit's shuffling
 */
public record TrainingSettings(int localEpochs, int batchSize, double learningRate,
    double proximalMu, long seed) {
  public TrainingSettings {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
    }
    // The local-training rules for epochs, rate and mu are the simulation's: check them there.
    new ClientUpdateConfig(localEpochs, batchSize, learningRate, proximalMu);
  }

  /** One epoch, batches of 10, rate 0.01, no proximal term, seed 0 (FedProx's paper settings). */
  public static TrainingSettings defaults() {
    return new TrainingSettings(1, 10, 0.01, 0, 0);
  }
}
