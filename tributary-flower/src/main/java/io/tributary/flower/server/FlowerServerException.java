package io.tributary.flower.server;

/** The server cannot go on: too few clients, no usable initial parameters, or a failed start. */
public class FlowerServerException extends Exception {
  private static final long serialVersionUID = 1L;

  public FlowerServerException(String message) {
    super(message);
  }

  public FlowerServerException(String message, Throwable cause) {
    super(message, cause);
  }
}
