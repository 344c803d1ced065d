package io.tributary.flower.server;

import java.util.Objects;

/**
 * One remote client's instruction did not give a usable result; the message names the client.
 *
 * <p>These fail only that client's part of a round: the runtime excludes the client and reports
 * the failure, and the server goes on.
 */
public sealed class RemoteClientException extends RuntimeException
    permits ClientDisconnectedException, InstructionTimeoutException, ClientResultException {
  private static final long serialVersionUID = 1L;

  private final String clientId;

  RemoteClientException(String clientId, String message, Throwable cause) {
    super("client " + clientId + ": " + message, cause);
    this.clientId = Objects.requireNonNull(clientId, "clientId");
  }

  /** The server-assigned id of the client, such as {@code client-3}. */
  public String clientId() {
    return clientId;
  }
}
