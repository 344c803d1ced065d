package io.tributary.runtime;

/**
 * Local code failed outside client work: a local function called on the server or on unplaced
 * values threw, or an operation on local values was invalid (for example a
 * {@code federated_select} key out of range on the server side).
 */
public final class LocalComputationException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  public LocalComputationException(String message, Throwable cause) {
    super(message, cause);
  }

  public LocalComputationException(String message) {
    super(message);
  }
}
