package io.tributary.graph;

/** Thrown when running a graph fails: a bad feed, or an op whose run-time shapes do not fit. */
public final class GraphExecutionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public GraphExecutionException(String message) {
    super(message);
  }

  public GraphExecutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
