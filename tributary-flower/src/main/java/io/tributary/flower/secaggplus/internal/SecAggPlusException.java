package io.tributary.flower.secaggplus.internal;

/** A SecAgg+ stage message that breaks the protocol: the reason becomes a Flower error reply. */
public final class SecAggPlusException extends Exception {
  private static final long serialVersionUID = 1L;

  public SecAggPlusException(String message) {
    super(message);
  }
}
