package io.tributary.flower.fleet.internal;

/**
 * A Fleet API call that failed, the same for both transports: what kind of failure decides
 * whether the node reconnects, stops, or only gives up on the message in hand.
 */
public final class FleetException extends RuntimeException {
  /** What went wrong, as far as the node's reaction is concerned. */
  public enum Kind {
    /** Not reachable, overloaded (503/504), timed out: reconnect with backoff. */
    UNAVAILABLE(true),
    /** The answer was not a Fleet API answer (garbage, wrong content type, too large). */
    BAD_RESPONSE(true),
    /** The SuperLink refused the node's identity (401/403, gRPC UNAUTHENTICATED): stop. */
    UNAUTHENTICATED(true),
    /** The call was interrupted because the node is stopping. */
    CANCELLED(true),
    /** The SuperLink refused this call (a conflict, such as a public key already in use). */
    REFUSED(false),
    /** What the call names is not known to the SuperLink (run, FAB, object). */
    NOT_FOUND(false),
    /** Any other failure of this one call (400, 500, gRPC INTERNAL...). */
    FAILED(false);

    private final boolean endsSession;

    Kind(boolean endsSession) {
      this.endsSession = endsSession;
    }

    /** Whether the node's conversation with the SuperLink cannot go on after it. */
    public boolean endsSession() {
      return endsSession;
    }
  }

  private final Kind kind;
  private final boolean unanswered;

  public FleetException(Kind kind, String message) {
    this(kind, message, false);
  }

  /**
   * A failure; {@code unanswered} when no Fleet answer came at all (the connection failed, was
   * closed or timed out), as when plain text meets a TLS server, rather than an error answer.
   */
  public FleetException(Kind kind, String message, boolean unanswered) {
    super(message, null, false, false);
    this.kind = kind;
    this.unanswered = unanswered;
  }

  /** Whether the call got no answer at all (see the constructor). */
  public boolean unanswered() {
    return unanswered;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * Whether the SuperLink refused the node's identity: {@link Kind#UNAUTHENTICATED}, to which
   * each transport maps its own answers once (gRPC {@code UNAUTHENTICATED} and {@code
   * PERMISSION_DENIED}, HTTP 401 and 403).
   */
  public boolean refusesNode() {
    return kind == Kind.UNAUTHENTICATED;
  }
}
