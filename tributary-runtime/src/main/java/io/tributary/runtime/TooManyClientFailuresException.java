package io.tributary.runtime;

import java.util.List;

/**
 * Failures are tolerated, but fewer clients than the required fraction succeeded in one
 * aggregation.
 */
public final class TooManyClientFailuresException extends ExecutionFailedException {
  private static final long serialVersionUID = 1L;

  private final transient List<ClientFailure> failures;
  private final int clients;

  public TooManyClientFailuresException(
      String intrinsic, int clients, double required, List<ClientFailure> failures) {
    super(intrinsic + ": " + failures.size() + " of " + clients + " clients failed, so only "
        + (clients - failures.size()) + " succeeded where at least " + count(required)
        + " of them must; first failure: "
        + (failures.isEmpty() ? "none" : failures.get(0).describe()));
    this.failures = List.copyOf(failures);
    this.clients = clients;
  }

  /** A required count as a whole number of clients: "one" for any positive fraction of one. */
  private static String count(double required) {
    return required <= 1 ? "one" : Long.toString((long) Math.ceil(required - 1e-9));
  }

  /** Every failure, by client index. */
  public List<ClientFailure> failures() {
    return failures;
  }

  /** The number of clients that took part. */
  public int clients() {
    return clients;
  }
}
