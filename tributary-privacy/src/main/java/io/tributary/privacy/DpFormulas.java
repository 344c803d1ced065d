package io.tributary.privacy;

/**
 * The noise scales of differentially private federated averaging, with Flower's hyperparameter
 * names ({@code flwr/common/differential_privacy.py}).
 */
public final class DpFormulas {
  private DpFormulas() {}

  /**
   * Central DP's noise on the mean of the clipped updates: {@code noise_multiplier x
   * clipping_norm / num_sampled_clients} (the sum's noise, {@code z C}, divided by the expected
   * number of clients, as Flower's {@code compute_stdv}).
   *
   * @throws IllegalArgumentException when an argument is out of range
   */
  public static double centralStddev(double noiseMultiplier, double clippingNorm,
      int numSampledClients) {
    if (!(noiseMultiplier >= 0) || Double.isInfinite(noiseMultiplier)) {
      throw new IllegalArgumentException("noise_multiplier must be finite and >= 0, got "
          + noiseMultiplier);
    }
    if (!(clippingNorm > 0) || Double.isInfinite(clippingNorm)) {
      throw new IllegalArgumentException("clipping_norm must be positive and finite, got "
          + clippingNorm);
    }
    if (numSampledClients < 1) {
      throw new IllegalArgumentException("num_sampled_clients must be >= 1, got "
          + numSampledClients);
    }
    return noiseMultiplier * clippingNorm / numSampledClients;
  }

  /**
   * Local DP's Gaussian noise for an (epsilon, delta) guarantee per release: {@code sensitivity
   * x sqrt(2 ln(1.25 / delta)) / epsilon} (the classic Gaussian mechanism, valid for epsilon
   * below 1, as Flower's {@code add_localdp_gaussian_noise_to_params}).
   *
   * @throws IllegalArgumentException when an argument is out of range
   */
  public static double localStddev(double sensitivity, double epsilon, double delta) {
    if (!(sensitivity > 0) || !(epsilon > 0) || !(delta > 0 && delta < 1)
        || Double.isInfinite(sensitivity) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("local DP needs sensitivity > 0, epsilon > 0 and delta"
          + " in (0, 1), got " + sensitivity + ", " + epsilon + ", " + delta);
    }
    return sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon;
  }
}
