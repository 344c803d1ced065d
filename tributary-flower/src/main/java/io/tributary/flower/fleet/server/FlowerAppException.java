package io.tributary.flower.fleet.server;

/** A Flower App that cannot be served: no pyproject.toml, missing metadata, a FAB too large. */
public final class FlowerAppException extends Exception {
  private static final long serialVersionUID = 1L;

  public FlowerAppException(String message, Throwable cause) {
    super(message, cause);
  }
}
