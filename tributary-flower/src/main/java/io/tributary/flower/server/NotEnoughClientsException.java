package io.tributary.flower.server;

import java.time.Duration;

/** Fewer clients than required connected before the wait ran out. */
public final class NotEnoughClientsException extends FlowerServerException {
  private static final long serialVersionUID = 1L;

  private final int required;
  private final int connected;

  public NotEnoughClientsException(int required, int connected, Duration waited) {
    super("waited " + waited + " for " + required + " clients, but only " + connected
        + " connected");
    this.required = required;
    this.connected = connected;
  }

  public int required() {
    return required;
  }

  public int connected() {
    return connected;
  }
}
