package io.tributary.learning.aggregation;

import io.tributary.core.values.StructValue;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What an aggregator asks of clients that run elsewhere before they report (client-side
 * differential privacy): clip the update to a norm, and add Gaussian noise of a standard
 * deviation. A binding that talks to remote clients tells them (a Flower server sends {@code
 * clipping_norm} and {@code local_noise_stddev} in the fit config, as Flower's clipping mods
 * read them); a simulation runs the clients' part inside the aggregation and needs none of this.
 *
 * @param norm the clipping norm; with adaptive clipping the first round's
 * @param adaptiveNorm with adaptive clipping, the norm of the round that starts from the
 *     aggregator's state (its part {@code aggregator} of the server state); empty for a fixed
 *     norm
 * @param localNoiseStddev the standard deviation of the noise each client adds; 0 for none
 */
public record ClientClipping(double norm, Optional<ToDoubleFunction<StructValue>> adaptiveNorm,
    double localNoiseStddev) {
  /**
   * Checks the arguments.
   *
   * @throws IllegalArgumentException when the norm is not positive or the noise is negative, or
   *     either is not finite
   */
  public ClientClipping {
    if (!(norm > 0) || Double.isInfinite(norm)) {
      throw new IllegalArgumentException("norm must be positive and finite, got " + norm);
    }
    Objects.requireNonNull(adaptiveNorm, "adaptiveNorm");
    if (!(localNoiseStddev >= 0) || Double.isInfinite(localNoiseStddev)) {
      throw new IllegalArgumentException("localNoiseStddev must be finite and >= 0, got "
          + localNoiseStddev);
    }
  }

  /** The clipping norm of the round that starts from the aggregator's state {@code state}. */
  public double normFor(StructValue state) {
    return adaptiveNorm.map(f -> f.applyAsDouble(state)).orElse(norm);
  }
}
