package io.tributary.runtime;

/**
 * An invocation could not finish; the subclass says why.
 *
 * <p>Unchecked, like the failures of the code a computation runs; catch the specific subclass to
 * react to one cause, such as {@link ClientFailureException}.
 */
public class ExecutionFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ExecutionFailedException(String message) {
    super(message);
  }

  public ExecutionFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
