package io.tributary.format;

/** A {@code params.txt} or {@code updater.txt} reference to a tag or array file that is not in the model file. */
public final class DanglingReferenceException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public DanglingReferenceException(String entry, String problem) {
    super(entry, problem);
  }
}
