package io.tributary.flower.fleet.server.internal;

import io.tributary.flower.fleet.server.FleetLimits;

import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.ClientDisconnectedException;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.InstructionTimeoutException;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.OutboundBudget;
import io.tributary.flower.server.internal.RemoteClient;
import io.tributary.flower.server.internal.Traffic;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One online period of a Fleet node, as a client of the server's rounds: an instruction becomes
 * a Flower message the node pulls (with its objects), and the node's pushed reply, once all its
 * objects are there and check out, becomes the answer.
 *
 * <p>A node holds at most one instruction, as a Join client does. A reply that breaks the rules
 * (forged or oversized objects, a tree that does not match, a reply to another message, an
 * error) fails only this node's answer, with the reason; the node stays online, since Fleet
 * nodes keep no state between messages. A timeout fails the answer and forgets the message: a
 * late reply is refused as a reply to a message the node was not sent.
 *
 * <p>A large message's reply (a fit instruction's, or a message's whose objects pass {@link
 * OutboundBudget#SMALL} bytes: a reply carries as many parameters as the model it answers)
 * waits for the server's {@link InboundBudget}, which the node joins when the message is sent,
 * as a Join stream does: until admitted, the node's {@code PushMessages} call waits and its
 * objects are refused, so its reply stays on its side; admitted, it holds its share until the
 * round takes the answer ({@link #releaseAnswer}). The message's timeout then runs from
 * admission, so a node the round reaches late is not timed out while it waits its turn, nor
 * taken offline by the sweep ({@link #replyWaiting}). A waiting call that ends early (interrupted:
 * over gRPC, when the node cancels it or its connection drops, {@link GrpcFleet}) leaves the reply
 * pending and the node free to push it again; until it does, its missed heartbeats count again.
 */
public final class FleetNode implements RemoteClient, InboundBudget.Reader {
  private static final Logger LOG = LoggerFactory.getLogger(FleetNode.class);

  /** A message waiting for the node, with its objects until the node confirms it. */
  record Outgoing(String messageId, io.tributary.flower.fleet.internal.proto.Message head,
      ObjectTree tree, LinkedHashMap<String, byte[]> objects) {}

  private final long nodeId;
  private final String id;
  private final long runId;
  private final MessageApi api;
  private final FleetLimits limits;
  private final ScheduledExecutorService timer;
  private final Traffic traffic;
  private final Consumer<FleetNode> onClose;
  private final ObjectInterner interner;
  private final ObjectCodec.Memo memo;
  private final InboundBudget inbound;
  /** The inbound budget held for the reply being pushed or not yet taken by the round. */
  private final AtomicInteger readPermits = new AtomicInteger();
  private final Object lock = new Object();
  private Outgoing outgoing;
  private boolean pulled;
  private Waiting<?> pending;
  private Metadata pendingMetadata;
  private ScheduledFuture<?> pendingTimeout;
  private Optional<Duration> pendingTimeoutValue = Optional.empty();
  /** Whether the pending message's reply may be pushed: small, or admitted by the budget. */
  private boolean admitted;
  /** Completed when a waiting {@code PushMessages} may go on: admitted, or the message gone. */
  private CompletableFuture<Void> admissionSignal;
  private ReplyAssembly assembly;
  private boolean closed;
  /** Whether a {@code PushMessages} call waits for admission; read by the sweep, unlocked. */
  private volatile boolean replyWaiting;

  FleetNode(long nodeId, long runId, MessageApi api, FleetLimits limits,
      ScheduledExecutorService timer, Traffic traffic, ObjectInterner interner,
      ObjectCodec.Memo memo, InboundBudget inbound, Consumer<FleetNode> onClose) {
    this.inbound = inbound;
    this.interner = interner;
    this.memo = memo;
    this.nodeId = nodeId;
    this.id = "node-" + Long.toUnsignedString(nodeId);
    this.runId = runId;
    this.api = api;
    this.limits = limits;
    this.timer = timer;
    this.traffic = traffic;
    this.onClose = onClose;
  }

  @Override
  public String id() {
    return id;
  }

  /** The node's Fleet id. */
  public long nodeId() {
    return nodeId;
  }

  @Override
  public String tensorType() {
    return MessageApi.TENSOR_TYPE;
  }

  @Override
  public boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  @Override
  public boolean comesBackWhenAsked() {
    return false;
  }

  @Override
  public CompletableFuture<ClientMessage> request(ServerMessage message,
      Optional<Duration> timeout) {
    if (message.hasReconnectIns()) {
      // The Fleet API has no "go away": the node stays idle until it leaves or the server stops.
      return CompletableFuture.completedFuture(ClientMessage.newBuilder().setDisconnectRes(
          ClientMessage.DisconnectRes.getDefaultInstance()).build());
    }
    Message m;
    try {
      double ttl = timeout.map(t -> t.toMillis() / 1000.0).orElse(MessageApi.DEFAULT_TTL);
      m = api.instruction(message, runId, nodeId, ttl);
    } catch (MessageApi.BadReply e) {
      return CompletableFuture.failedFuture(new ClientResultException(id, e.getMessage(), e));
    }
    ServerMessage.MsgCase kind = message.getMsgCase();
    return send(m, kind.toString(), reply -> api.reply(kind, reply), timeout,
        message.hasFitIns());
  }

  /**
   * Sends the node a {@code train} message with {@code content} as it is (a stage of Flower's
   * SecAgg+ workflow) in group {@code group}; the future gets the reply's content, or fails
   * with a {@link io.tributary.flower.server.RemoteClientException} naming why: the node left,
   * timed out, broke the rules, or replied with an error.
   *
   * @throws IllegalStateException if the node still owes an answer
   */
  public CompletableFuture<RecordDict> train(RecordDict content, String group,
      Optional<Duration> timeout) {
    return message("train", content, group, timeout);
  }

  /**
   * Sends the node a message of {@code type} with {@code content} as it is, in group {@code
   * group}; the future gets the reply's content, or fails as {@link #train}'s does.
   *
   * @throws IllegalStateException if the node still owes an answer
   */
  @Override
  public CompletableFuture<RecordDict> message(String type, RecordDict content, String group,
      Optional<Duration> timeout) {
    double ttl = timeout.map(t -> t.toMillis() / 1000.0).orElse(MessageApi.DEFAULT_TTL);
    Message m = MessageApi.message(type, content, runId, nodeId, ttl, group);
    return send(m, type, reply -> {
      if (reply.error().isPresent()) {
        throw new MessageApi.BadReply("the ClientApp replied with error "
            + reply.error().get().code() + ": " + reply.error().get().reason());
      }
      return reply.content();
    }, timeout, true);
  }

  /** Reads the server's answer out of the node's reply. */
  @FunctionalInterface
  private interface ReplyReader<T> {
    T read(Message reply) throws MessageApi.BadReply;
  }

  /** An outstanding message's answer: the future and how the reply fills it. */
  private record Waiting<T>(CompletableFuture<T> future, ReplyReader<T> reader, String kind) {
    /** Completes the future from {@code reply}; the reason it is refused, or null. */
    String complete(Message reply) {
      T answer;
      try {
        answer = reader.read(reply);
      } catch (MessageApi.BadReply e) {
        return e.getMessage();
      }
      future.complete(answer);
      return null;
    }
  }

  /**
   * Sends {@code m}; with {@code readsAhead}, a reply to a message of more than {@link
   * OutboundBudget#SMALL} bytes waits for the inbound budget.
   */
  private <T> CompletableFuture<T> send(Message m, String kind, ReplyReader<T> reader,
      Optional<Duration> timeout, boolean readsAhead) {
    // Every node of a round is sent the same model: its objects are made once (the memo).
    ObjectCodec.Deflated d = ObjectCodec.deflate(m, memo);
    Message sent = m.withMessageId(d.rootId());
    int answerSize = readsAhead ? answerSize(d.objects().values()) : 0;
    CompletableFuture<T> f = new CompletableFuture<>();
    Waiting<T> w = new Waiting<>(f, reader, kind);
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.failedFuture(new ClientDisconnectedException(id,
            "the node is no longer online", null));
      }
      if (pending != null) {
        throw new IllegalStateException("node " + id + " still owes an answer to "
            + pending.kind());
      }
      outgoing = new Outgoing(d.rootId(), Protos.messageHead(sent), d.tree(),
          interner.intern(d.objects()));
      pulled = false;
      pending = w;
      pendingMetadata = sent.metadata();
      pendingTimeoutValue = timeout;
      assembly = null;
      admitted = answerSize == 0;
      if (admitted) {
        startTimeoutLocked();
      }
    }
    if (answerSize > 0) {
      // Outside the lock: admission may call back into startReading.
      inbound.admit(this, answerSize);
    }
    return f;
  }

  /** The bytes a reply is expected to hold: the message's, or 0 for a small one. */
  private static int answerSize(Collection<byte[]> objects) {
    long bytes = 0;
    for (byte[] o : objects) {
      bytes += o.length;
    }
    return InboundBudget.readsAhead(bytes) ? (int) Math.min(bytes, Integer.MAX_VALUE) : 0;
  }

  private void startTimeoutLocked() {
    Waiting<?> w = pending;
    pendingTimeoutValue.ifPresent(t -> pendingTimeout = timer.schedule(() -> expire(w, t),
        t.toNanos(), TimeUnit.NANOSECONDS));
  }

  /**
   * Lets the pending message's reply be pushed and starts its timeout, holding {@code permits}
   * of the inbound budget until the round takes the answer.
   *
   * @return false, holding nothing, if no reply waits for admission any more
   */
  @Override
  public boolean startReading(int permits) {
    synchronized (lock) {
      if (closed || pending == null || admitted) {
        return false;
      }
      readPermits.addAndGet(permits);
      admitted = true;
      startTimeoutLocked();
      signalLocked();
      return true;
    }
  }

  @Override
  public boolean awaitingAdmission() {
    synchronized (lock) {
      return pending != null && !admitted && !closed;
    }
  }

  /** Admits the pending reply at once if it waits for the inbound budget: the round needs it. */
  @Override
  public void expedite() {
    if (awaitingAdmission()) {
      inbound.expedite(this);
    }
  }

  /** The round has taken (or given up on) the last answer: its share goes back. Idempotent. */
  @Override
  public void releaseAnswer() {
    inbound.release(readPermits.getAndSet(0));
  }

  /**
   * Whether the node's {@code PushMessages} call is being held until its reply is admitted: the
   * server keeps it waiting, so its silence meanwhile is not the node's.
   */
  boolean replyWaiting() {
    return replyWaiting;
  }

  /** The message waiting for the node, once: its head and object tree. */
  Optional<Outgoing> pull() {
    synchronized (lock) {
      if (outgoing == null || pulled || closed) {
        return Optional.empty();
      }
      pulled = true;
      return Optional.of(outgoing);
    }
  }

  /** The head of a pulled message as PullMessages carries it. */
  static io.tributary.flower.fleet.internal.proto.Message head(Outgoing o) {
    return o.head();
  }

  /** The object tree of a pulled message. */
  static ObjectTree tree(Outgoing o) {
    return o.tree();
  }

  /** An object of the message waiting for the node; empty if it holds no such object. */
  Optional<byte[]> object(String objectId) {
    synchronized (lock) {
      byte[] c = outgoing == null ? null : outgoing.objects().get(objectId);
      if (c != null) {
        traffic.sent(c.length);
      }
      return Optional.ofNullable(c);
    }
  }

  /** The node has all of the message: its objects are let go. */
  void confirmed(String messageId) {
    synchronized (lock) {
      if (outgoing != null && outgoing.messageId().equals(messageId)) {
        outgoing = new Outgoing(outgoing.messageId(), outgoing.head(), outgoing.tree(),
            new LinkedHashMap<>());
      }
    }
  }

  /**
   * The node pushes a reply's head and tree: the ids of the objects to push, once the inbound
   * budget admits the reply (the call waits until then).
   *
   * @throws FleetCallException if the node owes no answer, or the reply breaks the rules (the
   *     answer then fails with the reason), or the message is given up while the reply waits
   */
  List<String> pushReply(io.tributary.flower.fleet.internal.proto.Message head, ObjectTree tree)
      throws FleetCallException {
    Waiting<?> failed;
    String why;
    ReplyAssembly a;
    Waiting<?> w;
    CompletableFuture<Void> admission;
    synchronized (lock) {
      Metadata md = head.getMetadata() == null ? null : Protos.metadata(head.getMetadata());
      if (pending == null || md == null
          || !md.replyToMessageId().equals(pendingMetadata.messageId())) {
        throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION,
            "node " + id + " replied to a message it was not sent (or no longer waits for)");
      }
      why = check(md, tree);
      a = null;
      if (why == null) {
        try {
          a = ReplyAssembly.of(tree, limits);
        } catch (MessageApi.BadReply e) {
          why = e.getMessage();
        }
      }
      if (why == null && admitted) {
        assembly = a;
        return List.copyOf(a.needed());
      }
      if (why == null && admissionSignal != null) {
        // One call waits per reply: copies would each hold their body in the server's heap.
        throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION, "node " + id
            + " is already pushing this reply; its PushMessages call waits for admission");
      }
      failed = why == null ? null : clearLocked();
      w = pending;
      if (why == null) {
        admissionSignal = new CompletableFuture<>();
      }
      admission = admissionSignal;
    }
    if (why != null) {
      inbound.forget(this);
      fail(failed, why);
      throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT, why);
    }
    // Waits outside the lock: a virtual thread parked here pins no carrier, whatever the JDK.
    replyWaiting = true;
    try {
      admission.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      synchronized (lock) {
        // No call waits any more: the node may push the reply again (the message still waits
        // for it), and its silence from now on is its own, for the sweep to see.
        if (admissionSignal == admission && !admitted) {
          admissionSignal = null;
        }
      }
      throw new FleetCallException(FleetCallException.Code.UNAVAILABLE, "node " + id
          + "'s PushMessages call ended before its reply was admitted (the node went away or the"
          + " server is stopping); the reply may be pushed again");
    } catch (ExecutionException e) {
      throw new IllegalStateException("admission never fails", e);
    } finally {
      replyWaiting = false;
    }
    synchronized (lock) {
      if (pending != w || closed || !admitted) {
        throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION, "node " + id
            + " no longer owes this reply: the message was given up while the reply waited");
      }
      assembly = a;
      return List.copyOf(a.needed());
    }
  }

  private String check(Metadata md, ObjectTree tree) {
    if (md.srcNodeId() != nodeId) {
      return "the reply names node " + Long.toUnsignedString(md.srcNodeId()) + " as its source";
    }
    if (md.runId() != runId) {
      return "the reply is for run " + Long.toUnsignedString(md.runId());
    }
    if (!md.messageType().equals(pendingMetadata.messageType())) {
      return "the reply is of type '" + md.messageType() + "' to a '"
          + pendingMetadata.messageType() + "' message";
    }
    if (!md.messageId().isEmpty() && !md.messageId().equals(tree.getObjectId())) {
      return "the reply's message id is not its object tree's root";
    }
    return null;
  }

  /**
   * An object of the reply being pushed.
   *
   * @return false if the object is not one the reply is waiting for
   * @throws FleetCallException if the object breaks the rules (the answer then fails)
   */
  boolean pushObject(String objectId, byte[] content) throws FleetCallException {
    ReplyAssembly a;
    Waiting<?> w;
    String why;
    synchronized (lock) {
      a = assembly;
      if (a == null || !a.wants(objectId)) {
        return false;
      }
      traffic.received(content.length);
      try {
        if (!a.add(objectId, content)) {
          return true;
        }
      } catch (MessageApi.BadReply e) {
        why = e.getMessage();
        Waiting<?> failed = clearLocked();
        fail(failed, why);
        throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT, why);
      }
      w = pending;
    }
    // Every object is there: put the reply together outside the lock.
    Message reply;
    try {
      reply = a.message();
      why = null;
    } catch (MessageApi.BadReply e) {
      reply = null;
      why = e.getMessage();
    }
    synchronized (lock) {
      if (pending != w) {
        return true;
      }
      clearLocked();
    }
    if (why == null) {
      why = w.complete(reply);
    }
    if (why != null) {
      fail(w, why);
    }
    return true;
  }

  private void fail(Waiting<?> w, String why) {
    if (w == null) {
      return;
    }
    LOG.warn("node {}: reply refused: {}", id, why);
    w.future().completeExceptionally(new ClientResultException(id, why, null));
  }

  private Waiting<?> clearLocked() {
    Waiting<?> w = pending;
    if (pendingTimeout != null) {
      pendingTimeout.cancel(false);
    }
    pending = null;
    pendingMetadata = null;
    pendingTimeout = null;
    pendingTimeoutValue = Optional.empty();
    assembly = null;
    outgoing = null;
    pulled = false;
    // A PushMessages call waiting for admission wakes and finds the message gone.
    signalLocked();
    return w;
  }

  private void signalLocked() {
    if (admissionSignal != null) {
      // Its waiter blocks in get(), so nothing runs inline under this lock.
      admissionSignal.complete(null);
      admissionSignal = null;
    }
  }

  private void expire(Waiting<?> w, Duration t) {
    synchronized (lock) {
      if (pending != w) {
        return;
      }
      clearLocked();
    }
    LOG.warn("node {} did not answer {} within {}", id, w.kind(), t);
    w.future().completeExceptionally(new InstructionTimeoutException(id, "no answer to "
        + w.kind() + " within " + t));
  }

  @Override
  public void abandon(CompletableFuture<ClientMessage> f, String why) {
    abandonAny(f, why);
  }

  /** Stops waiting for the answer {@code f}, which fails with {@code why}. */
  public void abandonAny(CompletableFuture<?> f, String why) {
    Waiting<?> w;
    synchronized (lock) {
      if (pending == null || pending.future() != f) {
        return;
      }
      w = clearLocked();
    }
    // Given up before admission: its place in the inbound queue would only delay others.
    inbound.forget(this);
    w.future().completeExceptionally(new InstructionTimeoutException(id, why));
  }

  @Override
  public void finish() {
    end("the node left");
  }

  /** Ends this online period: an outstanding instruction fails with {@code why}. */
  void end(String why) {
    Waiting<?> w;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      w = clearLocked();
    }
    // Gone: out of the inbound queue, its share given back.
    inbound.forget(this);
    releaseAnswer();
    onClose.accept(this);
    if (w != null) {
      w.future().completeExceptionally(new ClientDisconnectedException(id, why, null));
    }
  }

  @Override
  public String toString() {
    return "FleetNode[" + id + "]";
  }
}
