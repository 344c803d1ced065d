package io.tributary.runtime.executor.internal.local;

import io.tributary.runtime.ClientFailure;

/**
 * Local code failed: a Java function threw or returned a value that does not fit its type, or a
 * local intrinsic got values it cannot combine. The federating executor turns it into a client
 * failure or a {@code LocalComputationException}, depending on where the code ran.
 */
public final class LocalFunctionFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String operation;
  private final ClientFailure.Kind kind;

  LocalFunctionFailure(String operation, ClientFailure.Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.operation = operation;
    this.kind = kind;
  }

  /** The failing function's name. */
  public String operation() {
    return operation;
  }

  /** How the function failed. */
  public ClientFailure.Kind kind() {
    return kind;
  }
}
