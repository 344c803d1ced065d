package io.tributary.core.proto;

/**
 * Thrown when a serialized type or computation cannot be read: a missing or unknown field, an
 * unsupported kind, a broken type rule, or a computation that is not well typed.
 */
public final class MalformedComputationException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String path;

  public MalformedComputationException(String path, String message) {
    super(path + ": " + message);
    this.path = path;
  }

  public MalformedComputationException(String path, String message, Throwable cause) {
    super(path + ": " + message, cause);
    this.path = path;
  }

  /** Where in the message the problem is, such as {@code $.result.argument}. */
  public String path() {
    return path;
  }
}
