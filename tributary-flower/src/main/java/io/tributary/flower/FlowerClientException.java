package io.tributary.flower;

/**
 * A {@link FlowerClient} operation failed; the message says why and is sent to the server in the
 * result's status.
 */
public class FlowerClientException extends Exception {
  private static final long serialVersionUID = 1L;

  public FlowerClientException(String message) {
    super(message);
  }

  public FlowerClientException(String message, Throwable cause) {
    super(message, cause);
  }
}
