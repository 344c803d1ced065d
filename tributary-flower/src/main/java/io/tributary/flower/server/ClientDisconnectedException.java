package io.tributary.flower.server;

/** The client's stream ended (or was never there) while an instruction waited for its answer. */
public final class ClientDisconnectedException extends RemoteClientException {
  private static final long serialVersionUID = 1L;

  public ClientDisconnectedException(String clientId, String message, Throwable cause) {
    super(clientId, message, cause);
  }
}
