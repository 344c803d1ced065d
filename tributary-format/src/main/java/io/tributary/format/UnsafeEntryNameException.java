package io.tributary.format;

/** A zip entry whose name could escape an extraction folder: absolute, with {@code ..}, a drive or a backslash. */
public final class UnsafeEntryNameException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public UnsafeEntryNameException(String entry, String problem) {
    super(entry, problem);
  }
}
