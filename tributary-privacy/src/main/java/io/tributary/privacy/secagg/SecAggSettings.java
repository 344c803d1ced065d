package io.tributary.privacy.secagg;

import java.util.Objects;

/**
 * The parameters of a SecAgg+ round.
 *
 * @param neighbours k, the number of clients each client agrees masks with and gives shares to
 *     (the degree of the communication graph; all clients when there are at most {@code k + 1})
 * @param threshold t, the number of a client's neighbours whose shares recover its secrets; at
 *     most {@code k} and more than {@code k / 2}, so that no set of shares the server gathers for
 *     one client holds {@code t} of both kinds from honest clients
 * @param inputBits every input element is in {@code [0, 2^inputBits)} (1 to 63); the protocol
 *     sums modulo {@code 2^(inputBits + ceil(log2 n))} (at most {@code 2^64}), so the sum of
 *     {@code n} inputs is exact
 * @param clippingRange floating updates are clipped to {@code [-c, c]} before {@link Quantizer}
 *     maps them to {@code [0, 2^inputBits)}
 * @param rounding how quantization rounds
 * @param graphSeed the public seed the communication graph derives from; also salts the key
 *     derivation, binding keys to the round
 * @param randomness where the secrets come from: {@link SecAggRandomness#secure()} unless a test
 *     needs to repeat itself
 */
public record SecAggSettings(int neighbours, int threshold, int inputBits, double clippingRange,
    Rounding rounding, long graphSeed, SecAggRandomness randomness) {
  /** The neighbours a client has unless told otherwise, in simulation and over Flower: 16. */
  public static final int DEFAULT_NEIGHBOURS = 16;
  /** The default threshold: 9 of 16 neighbours. */
  public static final int DEFAULT_THRESHOLD = 9;
  /** The default width of a quantized update element: 16 bits. */
  public static final int DEFAULT_INPUT_BITS = 16;

  public SecAggSettings {
    if (neighbours < 1) {
      throw new IllegalArgumentException("neighbours must be at least 1, got " + neighbours);
    }
    if (threshold < 1 || threshold > neighbours || 2L * threshold <= neighbours) {
      throw new IllegalArgumentException("the threshold must be in (" + neighbours + "/2, "
          + neighbours + "], got " + threshold);
    }
    if (inputBits < 1 || inputBits > 63) {
      throw new IllegalArgumentException("inputBits must be 1 to 63, got " + inputBits);
    }
    if (!(clippingRange > 0.0) || !Double.isFinite(clippingRange)) {
      throw new IllegalArgumentException("the clipping range must be positive and finite, got "
          + clippingRange);
    }
    Objects.requireNonNull(rounding, "rounding");
    Objects.requireNonNull(randomness, "randomness");
  }

  /**
   * Settings with secure randomness, a clipping range of 1 and stochastic rounding.
   */
  public static SecAggSettings of(int neighbours, int threshold, int inputBits, long graphSeed) {
    return new SecAggSettings(neighbours, threshold, inputBits, 1.0, Rounding.STOCHASTIC,
        graphSeed, SecAggRandomness.secure());
  }

  /** A copy with another source of randomness. */
  public SecAggSettings withRandomness(SecAggRandomness r) {
    return new SecAggSettings(neighbours, threshold, inputBits, clippingRange, rounding,
        graphSeed, r);
  }

  /** A copy with another input width. */
  public SecAggSettings withInputBits(int bits) {
    return new SecAggSettings(neighbours, threshold, bits, clippingRange, rounding, graphSeed,
        randomness);
  }

  /** A copy with another clipping range and rounding, for floating updates. */
  public SecAggSettings withQuantization(double range, Rounding r) {
    return new SecAggSettings(neighbours, threshold, inputBits, range, r, graphSeed, randomness);
  }

  /**
   * The bits of the protocol's modulus for {@code clients} clients:
   * {@code inputBits + ceil(log2 clients)}, at most 64.
   */
  public int modulusBits(int clients) {
    int clientBits = clients <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(clients - 1);
    return Math.min(64, inputBits + clientBits);
  }

  /**
   * These settings for a round of {@code clients} clients: with fewer than {@code k + 1} clients
   * the graph is complete ({@code k = clients - 1}) and the threshold drops to at most that,
   * staying above half of it.
   *
   * @throws IllegalArgumentException for fewer than 2 clients, whose sum would be an input
   */
  public SecAggSettings forClients(int clients) {
    if (clients < 2) {
      throw new IllegalArgumentException("secure aggregation needs at least 2 clients, got "
          + clients);
    }
    if (neighbours <= clients - 1) {
      return this;
    }
    int k = clients - 1;
    int t = Math.max(k / 2 + 1, Math.min(threshold, k));
    return new SecAggSettings(k, t, inputBits, clippingRange, rounding, graphSeed, randomness);
  }
}
