package io.tributary.format;

/** Two zip entries with the same name, compared case-insensitively as tags are. */
public final class DuplicateEntryException extends ModelFormatException {
  private static final long serialVersionUID = 1L;

  public DuplicateEntryException(String entry, String problem) {
    super(entry, problem);
  }
}
