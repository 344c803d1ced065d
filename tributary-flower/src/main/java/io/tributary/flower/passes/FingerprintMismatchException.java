package io.tributary.flower.passes;

/**
 * What a node rebuilt is not the computation the server runs: another algorithm composition,
 * hyperparameter, aggregator or Tributary version gives another fingerprint. The node refuses
 * rather than replay a computation other than the server's.
 */
public final class FingerprintMismatchException extends NodeComputationException {
  private static final long serialVersionUID = 1L;

  private final ComputationFingerprint expected;
  private final ComputationFingerprint actual;

  public FingerprintMismatchException(String algorithm, ComputationFingerprint expected,
      ComputationFingerprint actual) {
    super("the server's " + algorithm + " computation has fingerprint " + expected
        + ", the one this node rebuilt has " + actual + ": the node's algorithm (its "
        + "composition, hyperparameters or Tributary version) is not the server's", null);
    this.expected = expected;
    this.actual = actual;
  }

  /** The fingerprint the server sent. */
  public ComputationFingerprint expected() {
    return expected;
  }

  /** The fingerprint of the computation the node rebuilt. */
  public ComputationFingerprint actual() {
    return actual;
  }
}
