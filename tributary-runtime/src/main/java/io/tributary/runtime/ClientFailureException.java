package io.tributary.runtime;

import java.util.Objects;

/**
 * A client's work threw, timed out or produced a bad value while failures are not tolerated
 * ({@link RuntimeOptions#minSuccessFraction()} is 1).
 */
public final class ClientFailureException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  private final transient ClientFailure failure;

  public ClientFailureException(ClientFailure failure, Throwable cause) {
    super(Objects.requireNonNull(failure, "failure").describe(), cause);
    this.failure = failure;
  }

  /** The failure, naming client, intrinsic and operation. */
  public ClientFailure failure() {
    return failure;
  }

  /** The failing client's index. */
  public int client() {
    return failure.client();
  }

  /** The URI of the intrinsic whose client work failed. */
  public String intrinsic() {
    return failure.intrinsic();
  }
}
