package io.tributary.flower.server.internal;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.internal.proto.Status;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.RemoteClientException;
import io.tributary.flower.server.InstructionTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One instruction to one client, waited for on the calling thread, answer kind checked. */
final class RemoteCall {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteCall.class);

  private RemoteCall() {}

  /**
   * Sends {@code message} and returns the answer if it is of kind {@code expected} with status
   * OK.
   *
   * @throws RemoteClientException if the client disconnects, times out, or answers with another
   *     kind of message or a non-OK status
   */
  static ClientMessage ask(ClientProxy client, ServerMessage message,
      ClientMessage.MsgCase expected, Optional<Duration> timeout) {
    CompletableFuture<ClientMessage> f = client.request(message, timeout);
    ClientMessage answer;
    try {
      answer = f.get();
    } catch (InterruptedException e) {
      // The runtime stopped waiting (its client timeout): the answer can no longer be used.
      Thread.currentThread().interrupt();
      client.abandon(f, "the round stopped waiting for its answer to " + message.getMsgCase());
      throw new InstructionTimeoutException(client.id(), "the round stopped waiting for its "
          + "answer to " + message.getMsgCase());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RemoteClientException c) {
        throw c;
      }
      throw new IllegalStateException("unexpected failure waiting for client " + client.id(),
          e.getCause());
    }
    if (answer.getMsgCase() != expected) {
      throw fail(client, "answered " + message.getMsgCase() + " with " + answer.getMsgCase()
          + " instead of " + expected, null);
    }
    return answer;
  }

  /** Fails unless {@code status} is OK. */
  static void requireOk(ClientProxy client, Status status, String what) {
    if (status.getCode() != Code.OK) {
      throw fail(client, what + " reported " + status.getCode() + ": " + status.getMessage(),
          null);
    }
  }

  /** Logs why the client's result is refused and returns the exception to throw. */
  static ClientResultException fail(ClientProxy client, String why, Throwable cause) {
    LOG.warn("client {}: result refused: {}", client.id(), why);
    return new ClientResultException(client.id(), why, cause);
  }
}
