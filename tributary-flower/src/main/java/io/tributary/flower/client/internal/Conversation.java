package io.tributary.flower.client.internal;

import io.grpc.Status;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@code Join} stream to its end by Flower's rules: wait for the server to speak, answer
 * each instruction with exactly one message, and after {@code ReconnectIns} answer
 * {@code DisconnectRes(RECONNECT)} and close the stream.
 */
public final class Conversation {
  private static final Logger log = LoggerFactory.getLogger(Conversation.class);
  /** How long to wait for the server to close after our last message before cancelling. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

  /** How a stream ended. */
  public sealed interface End {}

  /** The server sent {@code ReconnectIns(seconds)}: 0 means stop, more means come back later. */
  public record Reconnect(long seconds) implements End {}

  /** The stream ended without {@code ReconnectIns}; {@code spoke} if the server sent anything. */
  public record Lost(Status status, boolean spoke) implements End {}

  /** The client was asked to stop. */
  public record Stopped() implements End {}

  private final InstructionHandler handler;
  private final SerializerRegistry registry;
  private final BooleanSupplier stopping;

  public Conversation(InstructionHandler handler, SerializerRegistry registry,
      BooleanSupplier stopping) {
    this.handler = handler;
    this.registry = registry;
    this.stopping = stopping;
  }

  /** Answers the server on {@code session} until the stream ends or the client stops. */
  public End run(JoinSession session) throws InterruptedException {
    boolean spoke = false;
    String sendType = null;
    while (true) {
      JoinSession.Event e = session.take();
      switch (e) {
        case JoinSession.StopRequested r -> {
          session.cancel("the client stopped");
          return new Stopped();
        }
        case JoinSession.Closed c -> {
          return stopping.getAsBoolean() ? new Stopped() : new Lost(c.status(), spoke);
        }
        case JoinSession.Message m -> {
          if (!spoke) {
            spoke = true;
            sendType = sendType(session.chosenType());
            log.info("joined: the server sent its first instruction; this client sends {}",
                sendType);
          }
          ServerMessage in = m.message();
          InstructionHandler.Reply reply = handler.handle(in, sendType);
          if (stopping.getAsBoolean()) {
            session.cancel("the client stopped");
            return new Stopped();
          }
          if (reply.reconnectSeconds().isPresent()) {
            session.sendLast(reply.message());
            awaitClose(session);
            return new Reconnect(reply.reconnectSeconds().getAsLong());
          }
          session.send(reply.message());
        }
      }
    }
  }

  /** The server's choice if this client can write it, else what every Flower server reads. */
  private String sendType(String chosen) {
    if (chosen == null) {
      return TensorTypes.DEFAULT;
    }
    if (!registry.available().contains(chosen)) {
      log.warn("the server chose tensor type '{}', which this client cannot write (it has {});"
          + " sending {}", chosen, registry.available(), TensorTypes.DEFAULT);
      return TensorTypes.DEFAULT;
    }
    return chosen;
  }

  private static void awaitClose(JoinSession session) throws InterruptedException {
    long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      JoinSession.Event e = left > 0 ? session.poll(Duration.ofNanos(left)) : null;
      if (e == null) {
        session.cancel("the server did not close the stream after DisconnectRes");
        return;
      }
      if (e instanceof JoinSession.Closed) {
        return;
      }
      if (e instanceof JoinSession.Message m) {
        log.warn("the server sent {} after ReconnectIns; ignored", m.message().getMsgCase());
      }
    }
  }
}
