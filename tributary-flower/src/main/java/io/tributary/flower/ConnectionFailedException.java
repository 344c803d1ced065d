package io.tributary.flower;

/**
 * A {@link FlowerClientRunner} could not keep talking to its server: the server refused the
 * client (for example with {@code UNAUTHENTICATED}), or it stayed unreachable for every attempt
 * the backoff allows.
 */
public final class ConnectionFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  public ConnectionFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
