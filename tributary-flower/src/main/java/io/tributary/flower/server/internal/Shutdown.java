package io.tributary.flower.server.internal;

import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Flower's goodbye: {@code ReconnectIns(seconds=0)} to every client, then end the streams. */
public final class Shutdown {
  private static final Logger LOG = LoggerFactory.getLogger(Shutdown.class);

  private Shutdown() {}

  /**
   * Tells every connected client to disconnect and stop, waits up to {@code grace} for their
   * {@code DisconnectRes}, then ends every stream.
   */
  public static void disconnectAll(ClientManager manager, Duration grace)
      throws InterruptedException {
    reconnectAll(manager, 0, grace);
  }

  /**
   * Tells every connected client to disconnect and come back in {@code seconds} (0: not at
   * all), waits up to {@code grace} for their {@code DisconnectRes}, then ends every stream. A
   * client that still owes an answer is closed without the message.
   */
  public static void reconnectAll(ClientManager manager, long seconds, Duration grace)
      throws InterruptedException {
    reconnect(manager.all(), seconds, grace);
  }

  /** Like {@link #reconnectAll}, for {@code clients} only. */
  public static void reconnect(List<RemoteClient> clients, long seconds, Duration grace)
      throws InterruptedException {
    ServerMessage bye = ServerMessage.newBuilder().setReconnectIns(
        ServerMessage.ReconnectIns.newBuilder().setSeconds(seconds)).build();
    List<CompletableFuture<ClientMessage>> answers = new ArrayList<>();
    for (RemoteClient c : clients) {
      try {
        answers.add(c.request(bye, Optional.of(grace.isZero() ? Duration.ofMillis(1) : grace)));
      } catch (IllegalStateException e) {
        LOG.warn("client {} still owes an answer; closing it without ReconnectIns", c.id());
      }
    }
    long deadline = System.nanoTime() + grace.toNanos();
    for (CompletableFuture<ClientMessage> f : answers) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | TimeoutException e) {
        LOG.debug("a client did not confirm the disconnect", e);
      }
    }
    for (RemoteClient c : clients) {
      c.finish();
    }
    LOG.info("told {} clients to disconnect{}", clients.size(),
        seconds == 0 ? "" : " and come back in " + seconds + " s");
  }
}
