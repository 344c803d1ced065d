package io.tributary.format;

import java.io.IOException;

/**
 * A model file that cannot be read because one of its entries (or the zip structure itself) is
 * malformed, unsafe or inconsistent.
 *
 * <p>The subclasses name the kind of problem; every one names the zip entry it was found in
 * ({@link #entry()}), so the message reads {@code "entry 'tag/params/3.fb': ..."}.
 */
public class ModelFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String entry;

  /**
   * @param entry the zip entry at fault, or the empty string for the archive as a whole
   * @param problem what is wrong, in words
   */
  public ModelFormatException(String entry, String problem) {
    super(entry.isEmpty() ? problem : "entry '" + entry + "': " + problem);
    this.entry = entry;
  }

  /** Like {@link #ModelFormatException(String, String)}, keeping the low-level cause. */
  public ModelFormatException(String entry, String problem, Throwable cause) {
    this(entry, problem);
    initCause(cause);
  }

  /** The zip entry at fault; empty when the problem is the archive as a whole. */
  public String entry() {
    return entry;
  }
}
