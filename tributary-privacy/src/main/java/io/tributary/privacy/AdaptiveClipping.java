package io.tributary.privacy;

/**
 * Adaptive clipping (Andrew, Thakkar, McMahan and Ramaswamy 2021, "Differentially Private
 * Learning with Adaptive Clipping"): after each round the clipping norm C moves geometrically
 * toward the target quantile of the clients' update norms, from a noised count of the updates
 * that were not clipped: {@code C <- C exp(-clip_norm_lr (b - target_clipped_quantile))}, where
 * {@code b} is that noised count over the number of updates.
 *
 * <p>Flower 1.27's adaptive-clipping strategies count the updates that <em>were</em> clipped into
 * the same rule, which moves C away from the target (more clipped updates shrink C further); this
 * class follows the paper, so that C converges to the quantile. Hyperparameters take Flower's
 * names and defaults. The count's noise costs privacy too: {@link #updateNoiseMultiplier} is the
 * noise multiplier the model update must then use so that both together spend what {@code
 * noise_multiplier} alone would.
 *
 * @param targetClippedQuantile the quantile of update norms C should track (default 0.5)
 * @param clipNormLr the geometric step size (default 0.2)
 * @param clippedCountStddev the standard deviation of the count's noise (Flower's default:
 *     {@code num_sampled_clients / 20})
 */
public record AdaptiveClipping(double targetClippedQuantile, double clipNormLr,
    double clippedCountStddev) {
  /**
   * Checks the hyperparameters.
   *
   * @throws IllegalArgumentException naming the first out of range
   */
  public AdaptiveClipping {
    if (!(targetClippedQuantile >= 0 && targetClippedQuantile <= 1)) {
      throw new IllegalArgumentException("target_clipped_quantile must be in [0, 1], got "
          + targetClippedQuantile);
    }
    if (!(clipNormLr > 0) || Double.isInfinite(clipNormLr)) {
      throw new IllegalArgumentException("clip_norm_lr must be positive and finite, got "
          + clipNormLr);
    }
    if (!(clippedCountStddev >= 0) || Double.isInfinite(clippedCountStddev)) {
      throw new IllegalArgumentException("clipped_count_stddev must be finite and >= 0, got "
          + clippedCountStddev);
    }
  }

  /** Flower's defaults for {@code numSampledClients} clients per round. */
  public static AdaptiveClipping defaults(int numSampledClients) {
    return new AdaptiveClipping(0.5, 0.2, numSampledClients / 20.0);
  }

  /**
   * The clipping norm for the next round.
   *
   * @param clippingNorm this round's norm
   * @param unclipped the updates whose norm was at most {@code clippingNorm}
   * @param updates the updates of the round, >= 1
   * @param noise where the count's noise comes from
   * @throws IllegalArgumentException when the counts are inconsistent
   */
  public double next(double clippingNorm, int unclipped, int updates, NoiseSource noise) {
    if (updates < 1 || unclipped < 0 || unclipped > updates) {
      throw new IllegalArgumentException("adaptive clipping: " + unclipped + " unclipped of "
          + updates + " updates");
    }
    double noised = unclipped + clippedCountStddev * noise.nextGaussian();
    double fraction = noised / updates;
    return clippingNorm * Math.exp(-clipNormLr * (fraction - targetClippedQuantile));
  }

  /**
   * The noise multiplier of the model update when the count is noised too: {@code (z^-2 -
   * (2 clipped_count_stddev)^-2)^(-1/2)} (Andrew et al., Theorem 1, as Flower's {@code
   * compute_adaptive_noise_params}); 0 when {@code z} is 0.
   *
   * @throws IllegalArgumentException when the count's noise is too small for {@code z}
   *     ({@code z >= 2 clipped_count_stddev}), naming both
   */
  public double updateNoiseMultiplier(double noiseMultiplier) {
    if (noiseMultiplier == 0) {
      return 0;
    }
    if (!(noiseMultiplier > 0) || noiseMultiplier >= 2 * clippedCountStddev) {
      throw new IllegalArgumentException("noise_multiplier " + noiseMultiplier + " needs "
          + "clipped_count_stddev above " + noiseMultiplier / 2 + ", got " + clippedCountStddev);
    }
    return Math.pow(Math.pow(noiseMultiplier, -2) - Math.pow(2 * clippedCountStddev, -2), -0.5);
  }
}
