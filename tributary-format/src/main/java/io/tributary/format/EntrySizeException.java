package io.tributary.format;

/** A zip entry whose bytes do not fit its declared sizes: longer, shorter, or running into another entry. */
public final class EntrySizeException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public EntrySizeException(String entry, String problem) {
    super(entry, problem);
  }

  public EntrySizeException(String entry, String problem, Throwable cause) {
    super(entry, problem, cause);
  }
}
