package io.tributary.format;

/** Told about a save's progress, entry by entry; for progress bars and logs. */
@FunctionalInterface
public interface SaveListener {
  /**
   * Called after each entry is written.
   *
   * @param entry the entry's name
   * @param bytesWritten bytes written to the new file so far
   */
  void entryWritten(String entry, long bytesWritten);

  /** A listener that does nothing. */
  static SaveListener none() {
    return (entry, bytes) -> { };
  }
}
