package io.tributary.runtime.executor.internal.federated;

import io.tributary.runtime.ClientFailure;

/**
 * Carries one client's failure out of its work to the pass that ran it. The intrinsic may still
 * be unknown (empty) where the failure came from an argument's generator; the pass then names
 * the aggregation that consumed the value.
 */
public final class ClientWorkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ClientFailure failure;

  /** A client's work failed as {@code failure} says. */
  public ClientWorkException(ClientFailure failure, Throwable cause) {
    super(failure.describe(), cause);
    this.failure = failure;
  }

  ClientFailure failure() {
    return failure;
  }

  /** The failure, naming {@code intrinsic} where none was known yet. */
  public ClientFailure failureIn(String intrinsic) {
    if (!failure.intrinsic().isEmpty()) {
      return failure;
    }
    return new ClientFailure(failure.client(), intrinsic, failure.operation(), failure.kind(),
        failure.message());
  }
}
