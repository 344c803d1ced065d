package io.tributary.runtime;

/**
 * The number of CLIENTS is unknown or inconsistent: two {@code {T}@CLIENTS} arguments disagree
 * in size, or a value at CLIENTS is needed when no argument or population gives the count.
 */
public final class CardinalityException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  public CardinalityException(String message) {
    super(message);
  }
}
