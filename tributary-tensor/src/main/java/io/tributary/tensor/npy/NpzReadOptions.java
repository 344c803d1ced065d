package io.tributary.tensor.npy;

/**
 * Limits on how much an NPZ archive may expand when read, against zip bombs.
 *
 * <p>The arrays of all entries together may take at most {@code maxExpansionRatio} times the
 * archive's size in bytes (never less than {@link #RATIO_EXEMPT_BYTES}, so that small archives of
 * very compressible arrays still read), and the arrays of deflated entries together at most
 * {@code maxInflatedBytes}. Stored entries cannot take more than the archive's size, since
 * entries whose bytes overlap are refused. Declared sizes are judged before any entry is read,
 * and each entry's actual data is held to what remains of both limits.
 *
 * @param maxExpansionRatio the most bytes all arrays may take per byte of archive; at least 1
 * @param maxInflatedBytes the most bytes all deflated entries together may expand to
 */
public record NpzReadOptions(long maxExpansionRatio, long maxInflatedBytes) {
  /** The ratio applies beyond this many bytes: an archive may always expand to 1 MiB. */
  public static final long RATIO_EXEMPT_BYTES = 1L << 20;

  /** The default ratio, 100: far above what {@code np.savez_compressed} gets on model weights. */
  public static final long DEFAULT_MAX_EXPANSION_RATIO = 100;

  /** The default cap on deflated data, 4 GiB. */
  public static final long DEFAULT_MAX_INFLATED_BYTES = 4L << 30;

  public NpzReadOptions {
    if (maxExpansionRatio < 1) {
      throw new IllegalArgumentException("maxExpansionRatio must be at least 1: " + maxExpansionRatio);
    }
    if (maxInflatedBytes < 0) {
      throw new IllegalArgumentException("maxInflatedBytes must not be negative: " + maxInflatedBytes);
    }
  }

  /** A ratio of {@value #DEFAULT_MAX_EXPANSION_RATIO} and 4 GiB of deflated data. */
  public static NpzReadOptions defaults() {
    return new NpzReadOptions(DEFAULT_MAX_EXPANSION_RATIO, DEFAULT_MAX_INFLATED_BYTES);
  }

  /** These options with another expansion ratio. */
  public NpzReadOptions withMaxExpansionRatio(long ratio) {
    return new NpzReadOptions(ratio, maxInflatedBytes);
  }

  /** These options with another cap on deflated data. */
  public NpzReadOptions withMaxInflatedBytes(long bytes) {
    return new NpzReadOptions(maxExpansionRatio, bytes);
  }

  /** The most bytes all entries of an archive of {@code archiveSize} bytes may expand to. */
  public long maxTotalBytes(long archiveSize) {
    long byRatio = Math.multiplyHigh(archiveSize, maxExpansionRatio) != 0
        ? Long.MAX_VALUE : archiveSize * maxExpansionRatio;
    return Math.max(byRatio < 0 ? Long.MAX_VALUE : byRatio, RATIO_EXEMPT_BYTES);
  }
}
