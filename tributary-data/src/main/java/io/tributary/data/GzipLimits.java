package io.tributary.data;

/**
 * How far gzip-compressed dataset files (IDX, CSV) may expand when read, against gzip bombs.
 *
 * <p>The decompressed bytes may be at most {@code maxExpansionRatio} times the compressed bytes
 * (never less than {@link #RATIO_EXEMPT_BYTES}, so that small, very compressible files read),
 * and at most {@code maxDecompressedBytes} in all. An IDX file's size is judged from its header
 * and gzip trailer before its arrays are allocated; CSV text is counted as it is decompressed,
 * against the compressed bytes read so far, so its arrays never grow past what the limits allow.
 * Uncompressed files are not limited here, since they cannot expand.
 *
 * @param maxExpansionRatio the most decompressed bytes per compressed byte; at least 1
 * @param maxDecompressedBytes the most decompressed bytes in all
 */
public record GzipLimits(long maxExpansionRatio, long maxDecompressedBytes) {
  /** The ratio applies beyond this many bytes: a file may always expand to 1 MiB. */
  public static final long RATIO_EXEMPT_BYTES = 1L << 20;

  /** The default ratio, 100: datasets such as MNIST compress about 5:1, CSV text 3 to 10:1. */
  public static final long DEFAULT_MAX_EXPANSION_RATIO = 100;

  /** The default cap on decompressed bytes: 4 GiB. */
  public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 4L << 30;

  public GzipLimits {
    if (maxExpansionRatio < 1) {
      throw new IllegalArgumentException("maxExpansionRatio must be at least 1: " + maxExpansionRatio);
    }
    if (maxDecompressedBytes < 0) {
      throw new IllegalArgumentException("maxDecompressedBytes must not be negative: " + maxDecompressedBytes);
    }
  }

  /** A ratio of 100 and 4 GiB in all. */
  public static GzipLimits defaults() {
    return new GzipLimits(DEFAULT_MAX_EXPANSION_RATIO, DEFAULT_MAX_DECOMPRESSED_BYTES);
  }

  /** These limits with another ratio. */
  public GzipLimits withMaxExpansionRatio(long ratio) {
    return new GzipLimits(ratio, maxDecompressedBytes);
  }

  /** These limits with another cap. */
  public GzipLimits withMaxDecompressedBytes(long bytes) {
    return new GzipLimits(maxExpansionRatio, bytes);
  }

  /** The most bytes {@code compressed} bytes of gzip may expand to. */
  public long maxBytes(long compressed) {
    long byRatio = Math.multiplyHigh(compressed, maxExpansionRatio) != 0
        ? Long.MAX_VALUE : compressed * maxExpansionRatio;
    return Math.min(maxDecompressedBytes, Math.max(byRatio < 0 ? Long.MAX_VALUE : byRatio, RATIO_EXEMPT_BYTES));
  }

  /** Why {@code decompressed} bytes from {@code compressed} are too many, for error messages. */
  String refusal(long decompressed, long compressed) {
    return decompressed > maxDecompressedBytes
        ? "expands to more than " + maxDecompressedBytes + " bytes (raise GzipLimits.maxDecompressedBytes to read it)"
        : "expands to " + decompressed + " bytes from " + compressed + " compressed, over "
            + maxExpansionRatio + " times (raise GzipLimits.maxExpansionRatio to read it)";
  }
}
