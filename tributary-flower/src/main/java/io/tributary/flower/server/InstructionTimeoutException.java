package io.tributary.flower.server;

/** The client did not answer an instruction in time; its stream is closed with DEADLINE_EXCEEDED. */
public final class InstructionTimeoutException extends RemoteClientException {
  private static final long serialVersionUID = 1L;

  public InstructionTimeoutException(String clientId, String message) {
    super(clientId, message, null);
  }
}
