package io.tributary.flower;

/**
 * The client does not implement an operation; the runner answers with Flower's
 * {@code *_NOT_IMPLEMENTED} status code for it.
 */
public final class OperationNotImplementedException extends FlowerClientException {
  private static final long serialVersionUID = 1L;

  private final String operation;

  /** For the operation named as Flower names it: {@code get_properties}, {@code fit}, ... */
  public OperationNotImplementedException(String operation) {
    super("the client does not implement " + operation);
    this.operation = operation;
  }

  /** The operation's name. */
  public String operation() {
    return operation;
  }
}
