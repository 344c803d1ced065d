package io.tributary.runtime.executor.internal.aggregation;

/** Where a secure sum's inputs go, which decides what a {@link LinearSink} holds for them. */
public enum SecureMode {
  /** No protocol: the inputs are summed in the clear (and may travel in pass parts). */
  CLEAR,
  /** A {@code SecureSummation} on this machine receives every input once the clients ran. */
  SUMMATION,
  /**
   * A node's replay for its client: the input goes to a {@code SecureSumClient}, and the pass
   * part holds nothing of it.
   */
  CLIENT,
  /**
   * The driver of an engine that runs secure sums where the clients are: parts hold nothing of
   * the inputs, and the sum comes from the protocol's server side.
   */
  ENGINE
}
