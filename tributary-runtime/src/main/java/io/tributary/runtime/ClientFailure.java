package io.tributary.runtime;

import java.util.Objects;

/**
 * One client's failure: which client, in which intrinsic, running what, and why.
 *
 * @param client the client's index in the population
 * @param intrinsic the URI of the intrinsic whose client work failed, such as
 *     {@code federated_map}
 * @param operation what ran on the client, such as {@code java:client_update}
 * @param kind how it failed
 * @param message the cause, in words
 */
public record ClientFailure(
    int client, String intrinsic, String operation, Kind kind, String message) {
  /** How a client failed. */
  public enum Kind {
    /** Its code threw. */
    THREW,
    /** It ran past the client timeout. */
    TIMED_OUT,
    /** It produced a value that does not fit the declared type. */
    BAD_VALUE,
    /**
     * It dropped out of a pass whose secure sums run where the clients are: its part, or its
     * input to the secure sum, did not reach the server ({@link PassEngine#runSecure}).
     */
    DROPPED_OUT
  }

  /** Checks that every part is named. */
  public ClientFailure {
    Objects.requireNonNull(intrinsic, "intrinsic");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }

  /** {@code client 7 failed in federated_map (java:train): threw: ...}. */
  public String describe() {
    String how = switch (kind) {
      case THREW -> "threw";
      case TIMED_OUT -> "timed out";
      case BAD_VALUE -> "returned a bad value";
      case DROPPED_OUT -> "dropped out";
    };
    return "client " + client + " failed in " + intrinsic + " (" + operation + "): " + how + ": "
        + message;
  }
}
