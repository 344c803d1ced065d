package io.tributary.runtime;

/**
 * A {@link SecureSummation} could not produce a secure sum: too few clients remained to unmask
 * it, a protocol message failed its check, or an input was outside the declared range. No
 * partial sum is revealed when this is thrown.
 */
public class SecureSumException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  public SecureSumException(String message) {
    super(message);
  }

  public SecureSumException(String message, Throwable cause) {
    super(message, cause);
  }
}
