package io.tributary.flower.server.internal;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.internal.proto.Status;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.InstructionTimeoutException;
import io.tributary.flower.server.RemoteClientException;
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
   * Sends {@code message} and returns the answer if it is of kind {@code expected}.
   *
   * @throws RemoteClientException if the client disconnects, times out, or answers with another
   *     kind of message
   */
  static ClientMessage ask(RemoteClient client, ServerMessage message,
      ClientMessage.MsgCase expected, Optional<Duration> timeout) {
    CompletableFuture<ClientMessage> f = client.request(message, timeout);
    return await(client, message.getMsgCase(), f, expected, () -> client.abandon(f,
        "the round stopped waiting for its answer to " + message.getMsgCase()));
  }

  /**
   * Waits for the answer {@code f} to an instruction of kind {@code sent}; if the wait is
   * interrupted (the runtime's client timeout), runs {@code abandon} and fails.
   *
   * @throws RemoteClientException if the answer failed or is not of kind {@code expected}
   */
  static ClientMessage await(RemoteClient client, ServerMessage.MsgCase sent,
      CompletableFuture<ClientMessage> f, ClientMessage.MsgCase expected, Runnable abandon) {
    ClientMessage answer;
    // The round waits for this answer now: read it even if the inbound budget is spent.
    client.expedite();
    try {
      answer = f.get();
    } catch (InterruptedException e) {
      // The runtime stopped waiting (its client timeout): the answer can no longer be used.
      Thread.currentThread().interrupt();
      abandon.run();
      throw new InstructionTimeoutException(client.id(), "the round stopped waiting for its "
          + "answer to " + sent);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RemoteClientException c) {
        throw c;
      }
      // Named in the message, which is what the round's failure reasons keep of it.
      Throwable cause = e.getCause();
      throw new IllegalStateException("unexpected failure waiting for client " + client.id()
          + ": " + cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), cause);
    } finally {
      // The answer is the caller's now (or lost): its share of the inbound budget goes back.
      client.releaseAnswer();
    }
    if (answer.getMsgCase() != expected) {
      throw fail(client, "answered " + sent + " with " + answer.getMsgCase() + " instead of "
          + expected, null);
    }
    return answer;
  }

  /** Fails unless {@code status} is OK. */
  static void requireOk(RemoteClient client, Status status, String what) {
    if (status.getCode() != Code.OK) {
      throw fail(client, what + " reported " + status.getCode() + ": " + status.getMessage(),
          null);
    }
  }

  /** Logs why the client's result is refused and returns the exception to throw. */
  static ClientResultException fail(RemoteClient client, String why, Throwable cause) {
    LOG.warn("client {}: result refused: {}", client.id(), why);
    return new ClientResultException(client.id(), why, cause);
  }
}
