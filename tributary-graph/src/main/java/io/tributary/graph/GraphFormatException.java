package io.tributary.graph;

import java.io.IOException;

/** Thrown when bytes are not a {@code graph.fb} this version can read. */
public final class GraphFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public GraphFormatException(String message) {
    super(message);
  }

  public GraphFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
