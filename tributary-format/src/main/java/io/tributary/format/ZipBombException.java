package io.tributary.format;

/** A zip entry that would expand far beyond its stored size, or that overlaps another entry's bytes. */
public final class ZipBombException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public ZipBombException(String entry, String problem) {
    super(entry, problem);
  }
}
