package io.tributary.flower.secaggplus;

/** A SecAgg+ round that could not finish: no sum is revealed. The message names the stage. */
public final class SecAggPlusRoundException extends Exception {
  private static final long serialVersionUID = 1L;

  public SecAggPlusRoundException(String message) {
    super(message);
  }
}
