package io.tributary.format;

import java.io.IOException;
import java.util.List;

/** A tag asked for by name that the model file does not hold. */
public final class NoSuchTagException extends IOException {
  private static final long serialVersionUID = 1L;

  public NoSuchTagException(String tag, List<String> known) {
    super("no tag '" + tag + "' (tags, oldest first: " + String.join(", ", known) + ")");
  }
}
