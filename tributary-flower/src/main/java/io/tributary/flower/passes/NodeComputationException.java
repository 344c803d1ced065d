package io.tributary.flower.passes;

/**
 * A node cannot rebuild the server's computation: the spec the server sent is not one it can
 * use ({@link ComputationSpecException}), or what it rebuilt is not the server's computation
 * ({@link FingerprintMismatchException}). A node refuses the instruction with the message; a
 * hostile server's config never crashes it.
 */
public sealed class NodeComputationException extends Exception
    permits ComputationSpecException, FingerprintMismatchException {
  private static final long serialVersionUID = 1L;

  NodeComputationException(String message, Throwable cause) {
    super(message, cause);
  }
}
