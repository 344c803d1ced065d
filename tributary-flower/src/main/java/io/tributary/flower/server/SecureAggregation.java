package io.tributary.flower.server;

/**
 * Secure aggregation of every fit round with SecAgg+: the server learns the example-weighted sum
 * of the clients' quantized updates and their total examples, not any single update.
 *
 * <p>The protocol is a {@link SecureFitProtocol} that the server finds on its class path:
 * {@code tributary-flower-secagg}'s SecAgg+, where a round's fit becomes four FitIns/FitRes
 * exchanges ({@code io.tributary.flower.secagg.SecAggFlower} has the layout) and the clients run
 * {@code io.tributary.flower.secagg.SecAggClientAdapter}. The round's update, handed to the
 * algorithm as one aggregated client update, is the sum divided by the survivors' total
 * examples. A client whose message is malformed, replayed, addressed to unknown peers, of the
 * wrong length or carries a key that fails verification is excluded like one that dropped out;
 * when too few remain the round fails, reveals no sum and keeps the model.
 *
 * @param neighbours k, the neighbours each client shares masks and secrets with (all the others
 *     in rounds of at most {@code k + 1} clients)
 * @param threshold t, the neighbours needed to recover a dropped client's secrets, in
 *     {@code (k/2, k]} (adapted with k in small rounds)
 * @param bits the bits of a quantized update element, 1 to 62
 * @param clippingRange every update element is clipped to {@code [-c, c]} before quantization
 * @param exampleBits a client's example count is capped at {@code 2^exampleBits - 1}; {@code bits
 *     + exampleBits + ceil(log2 clients)} must be at most 64 so that the sum is exact
 */
public record SecureAggregation(int neighbours, int threshold, int bits, double clippingRange,
    int exampleBits) {
  /** The default neighbours: 16. */
  public static final int DEFAULT_NEIGHBOURS = 16;
  /** The default threshold: 9 of 16. */
  public static final int DEFAULT_THRESHOLD = 9;
  /** The default quantization: 16 bits. */
  public static final int DEFAULT_BITS = 16;
  /** The default clipping range: 1. */
  public static final double DEFAULT_CLIPPING_RANGE = 1.0;
  /** The default cap on example counts: 2^20 - 1. */
  public static final int DEFAULT_EXAMPLE_BITS = 20;

  /** Checks the settings. */
  public SecureAggregation {
    check(neighbours >= 1, "neighbours must be at least 1, got " + neighbours);
    check(threshold >= 1 && threshold <= neighbours && 2L * threshold > neighbours,
        "the threshold must be in (" + neighbours + "/2, " + neighbours + "], got " + threshold);
    check(bits >= 1 && bits <= 62, "bits must be 1 to 62, got " + bits);
    check(exampleBits >= 0 && exampleBits <= 40, "example bits must be 0 to 40, got "
        + exampleBits);
    check(bits + exampleBits <= 62, "bits + example bits must be at most 62, got "
        + (bits + exampleBits));
    check(clippingRange > 0 && Double.isFinite(clippingRange),
        "the clipping range must be positive and finite, got " + clippingRange);
  }

  /** The defaults: 16 neighbours, threshold 9, 16 bits, clipping range 1, 20 example bits. */
  public static SecureAggregation defaults() {
    return new SecureAggregation(DEFAULT_NEIGHBOURS, DEFAULT_THRESHOLD, DEFAULT_BITS,
        DEFAULT_CLIPPING_RANGE, DEFAULT_EXAMPLE_BITS);
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
