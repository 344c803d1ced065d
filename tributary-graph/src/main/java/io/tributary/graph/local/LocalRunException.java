package io.tributary.graph.local;

/**
 * Thrown when a graph-backed local computation is called with a value it cannot use, or its
 * graph fails while running; the message names the computation and what was wrong.
 */
public final class LocalRunException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LocalRunException(String message) {
    super(message);
  }

  public LocalRunException(String message, Throwable cause) {
    super(message, cause);
  }
}
