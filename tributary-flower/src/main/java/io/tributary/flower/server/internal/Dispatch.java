package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.InstructionTimeoutException;
import io.tributary.flower.server.RemoteClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The instructions of one invocation, sent to every sampled client as soon as the invocation's
 * first client function runs, so that no client waits for a runtime worker to reach it.
 *
 * <p>The runtime runs client functions on a bounded pool, a group of clients per worker; a
 * function that sent its own instruction and then waited would keep at most one instruction per
 * worker in flight, and a thousand clients would take several fit latencies per round. Here the
 * first function call hands the model to a sender (a virtual thread) that sends every client's
 * instruction in sampling order, paced only by the server's {@link OutboundBudget}; each function
 * then waits for its own client's answer. A claimed answer is referenced by nothing here any more,
 * so its payload is released as soon as the runtime has folded it into the aggregate.
 */
final class Dispatch implements AutoCloseable {
  /** What one client of the dispatch is told and answers. */
  private static final class Slot {
    final RemoteClient client;
    final CompletableFuture<ClientMessage> answer = new CompletableFuture<>();
    // Guarded by this.
    CompletableFuture<ClientMessage> sent;
    boolean abandoned;

    Slot(RemoteClient client) {
      this.client = client;
    }
  }

  /** A client's answer, with the client it came from. */
  record Answer(RemoteClient client, ClientMessage message) {}

  private final ServerMessage.MsgCase kind;
  private final BiFunction<RemoteClient, StructValue, ServerMessage> instruction;
  private final Optional<Duration> timeout;
  private final Map<String, Slot> unclaimed = new ConcurrentHashMap<>();
  private final Slot[] queue;
  // Guarded by this.
  private StructValue model;
  private Thread sender;
  private boolean closed;

  /**
   * @param instruction builds a client's instruction for the model; may throw a {@link
   *     RemoteClientException} (such as a model that cannot be encoded for the client)
   */
  Dispatch(ServerMessage.MsgCase kind, List<RemoteClient> clients,
      BiFunction<RemoteClient, StructValue, ServerMessage> instruction,
      Optional<Duration> timeout) {
    this.kind = kind;
    this.instruction = instruction;
    this.timeout = timeout;
    this.queue = new Slot[clients.size()];
    for (int i = 0; i < queue.length; i++) {
      queue[i] = new Slot(clients.get(i));
      unclaimed.put(clients.get(i).id(), queue[i]);
    }
  }

  /**
   * Waits for client {@code id}'s answer to the instruction for {@code m}; the first call starts
   * sending every client's instruction.
   *
   * @return empty if the client is not part of this dispatch or its answer was already taken
   * @throws RemoteClientException if the client disconnects, times out, cannot be sent the
   *     instruction, or answers with another kind of message
   * @throws IllegalStateException if two calls name different models or the dispatch is closed
   */
  Optional<Answer> await(String id, StructValue m, ClientMessage.MsgCase expected) {
    start(m);
    Slot slot = unclaimed.remove(id);
    if (slot == null) {
      return Optional.empty();
    }
    ClientMessage message = RemoteCall.await(slot.client, kind, slot.answer, expected,
        () -> abandon(slot, "the round stopped waiting for its answer to " + kind));
    return Optional.of(new Answer(slot.client, message));
  }

  private synchronized void start(StructValue m) {
    if (closed) {
      throw new IllegalStateException("the " + kind + " dispatch is closed");
    }
    if (model == null) {
      model = m;
      sender = Thread.ofVirtual().name("flower-" + kind + "-sender").start(this::sendAll);
    } else if (model != m && !model.equals(m)) {
      throw new IllegalStateException("one invocation sent two different models as " + kind);
    }
  }

  private void sendAll() {
    StructValue m;
    synchronized (this) {
      m = model;
    }
    int next = 0;
    Slot current = null;
    try {
      while (next < queue.length) {
        current = queue[next];
        // The sender is done with a slot once sent: only its waiter keeps it (and its answer).
        queue[next++] = null;
        send(current, m);
        current = null;
      }
    } finally {
      // Should sending itself fail (an Error), no waiter may be left waiting for ever.
      if (current != null) {
        current.answer.completeExceptionally(new IllegalStateException("the " + kind
            + " sender failed while sending to client " + current.client.id()));
      }
      for (int k = next; k < queue.length; k++) {
        queue[k].answer.completeExceptionally(new IllegalStateException("the " + kind
            + " sender stopped before reaching client " + queue[k].client.id()));
        queue[k] = null;
      }
    }
  }

  private void send(Slot slot, StructValue m) {
    synchronized (slot) {
      if (slot.abandoned) {
        return;
      }
    }
    CompletableFuture<ClientMessage> sent;
    if (Thread.currentThread().isInterrupted()) {
      sent = CompletableFuture.failedFuture(new InstructionTimeoutException(slot.client.id(),
          "the round ended before " + kind + " was sent"));
    } else {
      try {
        sent = slot.client.request(instruction.apply(slot.client, m), timeout);
      } catch (RemoteClientException | IllegalStateException e) {
        // IllegalStateException: the client still owes an answer to an earlier instruction.
        sent = CompletableFuture.failedFuture(e);
      }
    }
    boolean abandoned;
    synchronized (slot) {
      slot.sent = sent;
      abandoned = slot.abandoned;
    }
    if (abandoned) {
      slot.client.abandon(sent, "the round stopped waiting for its answer to " + kind);
    }
    sent.whenComplete((answer, failure) -> {
      if (failure != null) {
        slot.answer.completeExceptionally(failure);
      } else {
        slot.answer.complete(answer);
      }
    });
  }

  private void abandon(Slot slot, String why) {
    CompletableFuture<ClientMessage> sent;
    synchronized (slot) {
      slot.abandoned = true;
      sent = slot.sent;
    }
    if (sent != null) {
      slot.client.abandon(sent, why);
    }
  }

  /**
   * Stops sending and gives up on every answer nobody claimed (their clients' streams close, as
   * after a timeout: a late answer could not be matched to a later instruction).
   */
  @Override
  public void close() throws InterruptedException {
    Thread s;
    synchronized (this) {
      closed = true;
      s = sender;
    }
    if (s != null && !unclaimed.isEmpty()) {
      s.interrupt();
    }
    if (s != null) {
      s.join();
    }
    for (Slot slot : unclaimed.values()) {
      abandon(slot, "the round ended before its answer to " + kind + " was used");
      // An answer that arrived but was never used gives back its share of the inbound budget.
      slot.client.releaseAnswer();
    }
    unclaimed.clear();
  }
}
