package io.tributary.format;

/**
 * Limits and checks for reading a model file.
 *
 * <p>Two limits bound what a file's entries may expand to, both judged from the zip directory
 * before any entry is read. All entries together may declare at most {@code maxExpansionRatio}
 * times the file's size (never less than 1 MiB, so that small files of compressible text read),
 * and deflated entries together at most {@code maxInflatedBytes}. Stored entries never expand:
 * entries whose bytes overlap are refused, so together they hold at most the file's size.
 *
 * @param maxInflatedBytes the most bytes that deflated entries (which Tributary never writes, but
 *     other zip tools may) may declare, in total and each; stored entries are not limited by it,
 *     since their size is bounded by the file
 * @param verifyChecksums whether arrays loaded into memory are checked against their CRC-32
 *     (memory-mapped arrays never are, as that would read them all)
 * @param maxExpansionRatio the most bytes all entries together may declare per byte of file; at
 *     least 1
 */
public record ReadOptions(long maxInflatedBytes, boolean verifyChecksums, long maxExpansionRatio) {
  /** The default cap on deflated data: 1 GiB. */
  public static final long DEFAULT_MAX_INFLATED_BYTES = 1L << 30;

  /** The default ratio of all entries' declared bytes to the file's size: 100. */
  public static final long DEFAULT_MAX_EXPANSION_RATIO = 100;

  /** The ratio applies beyond this many bytes: a file's entries may always declare 1 MiB. */
  public static final long RATIO_EXEMPT_BYTES = 1L << 20;

  /** 1 GiB of deflated data, entries up to 100 times the file's size, checksums verified. */
  public static ReadOptions defaults() {
    return new ReadOptions(DEFAULT_MAX_INFLATED_BYTES, true, DEFAULT_MAX_EXPANSION_RATIO);
  }

  public ReadOptions {
    if (maxInflatedBytes < 0) {
      throw new IllegalArgumentException("maxInflatedBytes must not be negative: " + maxInflatedBytes);
    }
    if (maxExpansionRatio < 1) {
      throw new IllegalArgumentException("maxExpansionRatio must be at least 1: " + maxExpansionRatio);
    }
  }

  /** Options with the default expansion ratio. */
  public ReadOptions(long maxInflatedBytes, boolean verifyChecksums) {
    this(maxInflatedBytes, verifyChecksums, DEFAULT_MAX_EXPANSION_RATIO);
  }

  /** These options with checksums verified or not. */
  public ReadOptions withVerifyChecksums(boolean verify) {
    return new ReadOptions(maxInflatedBytes, verify, maxExpansionRatio);
  }

  /** These options with another cap on deflated data. */
  public ReadOptions withMaxInflatedBytes(long bytes) {
    return new ReadOptions(bytes, verifyChecksums, maxExpansionRatio);
  }

  /** These options with another expansion ratio. */
  public ReadOptions withMaxExpansionRatio(long ratio) {
    return new ReadOptions(maxInflatedBytes, verifyChecksums, ratio);
  }

  /** The most bytes all entries of a file of {@code fileSize} bytes may declare. */
  public long maxTotalBytes(long fileSize) {
    long byRatio = Math.multiplyHigh(fileSize, maxExpansionRatio) != 0 ? Long.MAX_VALUE : fileSize * maxExpansionRatio;
    return Math.max(byRatio < 0 ? Long.MAX_VALUE : byRatio, RATIO_EXEMPT_BYTES);
  }
}
