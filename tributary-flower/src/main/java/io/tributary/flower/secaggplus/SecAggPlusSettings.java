package io.tributary.flower.secaggplus;

/**
 * The settings of Flower's {@code SecAggPlusWorkflow}, with its defaults in {@link #of}.
 *
 * @param numShares shares of each node's secrets (each node's neighbourhood size), at least 3
 * @param threshold shares needed to recover a secret, in [2, numShares)
 * @param clippingRange values are clipped to [-clippingRange, clippingRange] before quantization
 * @param quantizationRange values are quantized to [0, quantizationRange)
 * @param modulusRange the masks' range, a power of two above quantizationRange, at most 2^62
 * @param maxWeight the largest example count one node's weight is expected to reach
 */
public record SecAggPlusSettings(int numShares, int threshold, double clippingRange,
    long quantizationRange, long modulusRange, double maxWeight) {
  /** Checks the values as Flower's workflow does. */
  public SecAggPlusSettings {
    if (numShares < 3 || threshold < 2 || threshold >= numShares) {
      throw new IllegalArgumentException("need 2 <= threshold < num_shares and num_shares >= 3, "
          + "got threshold " + threshold + " of " + numShares);
    }
    if (!(clippingRange > 0) || Double.isInfinite(clippingRange) || !(maxWeight > 0)
        || Double.isInfinite(maxWeight)) {
      throw new IllegalArgumentException("clipping range and max weight must be finite and > 0");
    }
    if (quantizationRange < 1 || modulusRange <= quantizationRange
        || Long.bitCount(modulusRange) != 1 || modulusRange > 1L << 62) {
      throw new IllegalArgumentException("the modulus range must be a power of two above the "
          + "quantization range, at most 2^62");
    }
  }

  /** Flower's defaults: clipping 8.0, quantization 2^22, modulus 2^32, max weight 1000. */
  public static SecAggPlusSettings of(int numShares, int threshold) {
    return new SecAggPlusSettings(numShares, threshold, 8.0, 1L << 22, 1L << 32, 1000.0);
  }
}
