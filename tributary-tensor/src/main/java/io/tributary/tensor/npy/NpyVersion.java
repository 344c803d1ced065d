package io.tributary.tensor.npy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * An NPY format version: what the two bytes after the magic string say.
 *
 * <p>1.0 stores the header length in 2 bytes, 2.0 in 4 bytes; 3.0 is 2.0 with a UTF-8 header
 * instead of a Latin-1 one.
 */
public enum NpyVersion {
  V1_0(1, 2, StandardCharsets.ISO_8859_1),
  V2_0(2, 4, StandardCharsets.ISO_8859_1),
  V3_0(3, 4, StandardCharsets.UTF_8);

  private final int major;
  private final int lengthFieldSize;
  private final Charset headerCharset;

  NpyVersion(int major, int lengthFieldSize, Charset headerCharset) {
    this.major = major;
    this.lengthFieldSize = lengthFieldSize;
    this.headerCharset = headerCharset;
  }

  public int major() {
    return major;
  }

  /** Always 0: numpy has defined no other minor version. */
  public int minor() {
    return 0;
  }

  /** Bytes of the little-endian header-length field: 2 for 1.0, 4 otherwise. */
  public int lengthFieldSize() {
    return lengthFieldSize;
  }

  /** The largest header (padding and newline included) the length field can describe. */
  public long maxHeaderLength() {
    return lengthFieldSize == 2 ? 0xFFFFL : 0xFFFF_FFFFL;
  }

  Charset headerCharset() {
    return headerCharset;
  }

  /**
   * The version for these two bytes.
   *
   * @throws NpyException naming the version when numpy defines no such format
   */
  public static NpyVersion of(int major, int minor) throws NpyException {
    if (minor == 0) {
      for (NpyVersion v : values()) {
        if (v.major == major) {
          return v;
        }
      }
    }
    throw new NpyException(
        "unsupported NPY format version " + major + "." + minor + " (known: 1.0, 2.0, 3.0)");
  }

  @Override
  public String toString() {
    return major + ".0";
  }
}
