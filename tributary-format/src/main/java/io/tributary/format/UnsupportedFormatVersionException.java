package io.tributary.format;

/** An entry written by a newer version of the format than this reader understands. */
public final class UnsupportedFormatVersionException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public UnsupportedFormatVersionException(String entry, String problem) {
    super(entry, problem);
  }
}
