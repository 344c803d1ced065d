package io.tributary.flower.server;

/**
 * The client answered, but not usefully: the wrong kind of message, a non-OK status, parameters
 * that do not decode, or tensors that do not fit the model.
 */
public final class ClientResultException extends RemoteClientException {
  private static final long serialVersionUID = 1L;

  public ClientResultException(String clientId, String message, Throwable cause) {
    super(clientId, message, cause);
  }
}
