package io.tributary.runtime;

/**
 * A value does not fit the type it is used at: an argument of {@code invoke}, the result of a
 * local Java function, or data bound to a URI. The message names where the value was found.
 */
public final class ValueMismatchException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  public ValueMismatchException(String message) {
    super(message);
  }
}
