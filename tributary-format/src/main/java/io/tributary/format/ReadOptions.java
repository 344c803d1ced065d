package io.tributary.format;

/**
 * Limits and checks for reading a model file.
 *
 * @param maxInflatedBytes the most bytes that deflated entries (which Tributary never writes, but
 *     other zip tools may) may declare, in total and each; stored entries are not limited, since
 *     their size is bounded by the file
 * @param verifyChecksums whether arrays loaded into memory are checked against their CRC-32
 *     (memory-mapped arrays never are, as that would read them all)
 */
public record ReadOptions(long maxInflatedBytes, boolean verifyChecksums) {
  /** 1 GiB of deflated data, checksums verified. */
  public static ReadOptions defaults() {
    return new ReadOptions(1L << 30, true);
  }

  public ReadOptions {
    if (maxInflatedBytes < 0) {
      throw new IllegalArgumentException("maxInflatedBytes must not be negative: " + maxInflatedBytes);
    }
  }

  /** These options with checksums verified or not. */
  public ReadOptions withVerifyChecksums(boolean verify) {
    return new ReadOptions(maxInflatedBytes, verify);
  }
}
