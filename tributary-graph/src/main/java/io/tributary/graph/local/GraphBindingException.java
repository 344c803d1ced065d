package io.tributary.graph.local;

/**
 * Thrown when a graph computation cannot be made runnable: its graph bytes are corrupt, its
 * procedure is unknown, a setting is missing or malformed, or its declared type does not fit the
 * graph. The message names the computation.
 */
public final class GraphBindingException extends Exception {
  private static final long serialVersionUID = 1L;

  public GraphBindingException(String message) {
    super(message);
  }

  public GraphBindingException(String message, Throwable cause) {
    super(message, cause);
  }
}
