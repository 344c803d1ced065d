package io.tributary.format;

/** A zip entry whose bytes do not match the CRC-32 its directory records. */
public final class ChecksumMismatchException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public ChecksumMismatchException(String entry, String problem) {
    super(entry, problem);
  }
}
