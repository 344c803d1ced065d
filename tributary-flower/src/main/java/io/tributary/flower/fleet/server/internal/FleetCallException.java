package io.tributary.flower.fleet.server.internal;

/**
 * A Fleet call refused: the transport answers it with {@code code} (a gRPC status, or the HTTP
 * status it maps to) and the message; nothing was changed by the call beyond what the message
 * says.
 */
public final class FleetCallException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a call is refused, as gRPC names it. */
  public enum Code {
    INVALID_ARGUMENT(400), UNAUTHENTICATED(401), PERMISSION_DENIED(403), NOT_FOUND(404),
    FAILED_PRECONDITION(409), RESOURCE_EXHAUSTED(429), UNAVAILABLE(503);

    private final int http;

    Code(int http) {
      this.http = http;
    }

    /** The HTTP status this refusal is answered with. */
    public int http() {
      return http;
    }
  }

  private final Code code;

  public FleetCallException(Code code, String message) {
    super(message);
    this.code = code;
  }

  public Code code() {
    return code;
  }
}
