package io.tributary.flower.server.internal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.ClientDisconnectedException;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.InstructionTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's end of one client's {@code Join} stream: sends one instruction at a time and
 * completes its future with the client's one answer.
 *
 * <p>Flower's conversation is strictly alternating, so a proxy holds at most one outstanding
 * instruction. A timeout ends the stream with DEADLINE_EXCEEDED (a late answer could no longer be
 * matched to its instruction); a stream that ends fails the outstanding instruction. Either way
 * the proxy closes for good and {@code onClose} unregisters it.
 *
 * <p>A large instruction holds its size in the server's {@link OutboundBudget} from before it is
 * sent until the stream is ready again (grpc has written it out) or the stream ends.
 *
 * <p>The stream reads nothing on its own (inbound flow control): the proxy asks gRPC for one
 * message when it expects an answer. A fit answer is read only once the server's {@link
 * InboundBudget} admits it, and holds its share until the round has taken it ({@link
 * #releaseAnswer}); the instruction's timeout runs from the moment its answer may be read.
 */
public final class ClientProxy implements RemoteClient, InboundBudget.Reader {
  private static final Logger LOG = LoggerFactory.getLogger(ClientProxy.class);

  private final String id;
  private final String tensorType;
  private final boolean relay;
  private final ServerCallStreamObserver<ServerMessage> out;
  private final ScheduledExecutorService timer;
  private final Traffic traffic;
  private final Consumer<ClientProxy> onClose;
  private final int maxMessageSize;
  private final OutboundBudget budget;
  private final InboundBudget inbound;
  private final AtomicInteger heldBytes = new AtomicInteger();
  /** The inbound budget held for the answer being read or not yet taken by the round. */
  private final AtomicInteger readPermits = new AtomicInteger();
  private final Object lock = new Object();
  private CompletableFuture<ClientMessage> pending;
  private String pendingKind;
  private ScheduledFuture<?> pendingTimeout;
  private Optional<Duration> pendingTimeoutValue = Optional.empty();
  /**
   * Whether gRPC has been asked for the pending instruction's answer; a pending instruction not
   * yet read waits for the inbound budget to admit it.
   */
  private boolean reading;
  private boolean closed;

  ClientProxy(String id, String tensorType, ServerCallStreamObserver<ServerMessage> out,
      ScheduledExecutorService timer, Traffic traffic, Consumer<ClientProxy> onClose,
      int maxMessageSize, OutboundBudget budget, InboundBudget inbound) {
    this(id, tensorType, out, timer, traffic, onClose, maxMessageSize, budget, inbound, false);
  }

  ClientProxy(String id, String tensorType, ServerCallStreamObserver<ServerMessage> out,
      ScheduledExecutorService timer, Traffic traffic, Consumer<ClientProxy> onClose,
      int maxMessageSize, OutboundBudget budget, InboundBudget inbound, boolean relay) {
    this.relay = relay;
    this.id = Objects.requireNonNull(id, "id");
    this.tensorType = Objects.requireNonNull(tensorType, "tensorType");
    this.out = out;
    this.timer = timer;
    this.traffic = traffic;
    this.onClose = onClose;
    this.maxMessageSize = maxMessageSize;
    this.budget = Objects.requireNonNull(budget, "budget");
    this.inbound = Objects.requireNonNull(inbound, "inbound");
  }

  /** The server-assigned id, fresh for every stream. */
  public String id() {
    return id;
  }

  @Override
  public boolean isRelay() {
    return relay;
  }

  /** The {@code tensor_type} negotiated for this client. */
  public String tensorType() {
    return tensorType;
  }

  /** True once the stream has ended or been closed. */
  public boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  /**
   * Sends {@code message} and returns the future of the client's answer. The future fails with
   * {@link ClientDisconnectedException} if the stream ends first, or
   * {@link InstructionTimeoutException} after {@code timeout}. Waits first while the server's
   * outbound budget is spent (see {@link OutboundBudget}).
   *
   * @throws IllegalStateException if an instruction is already outstanding
   */
  public CompletableFuture<ClientMessage> request(ServerMessage message,
      Optional<Duration> timeout) {
    String kind = message.getMsgCase().name().toLowerCase(java.util.Locale.ROOT);
    CompletableFuture<ClientMessage> f = new CompletableFuture<>();
    if (message.getSerializedSize() > maxMessageSize) {
      return CompletableFuture.failedFuture(new ClientResultException(id, "cannot send " + kind
          + ": it is " + message.getSerializedSize() + " bytes, over the maximum message size of "
          + maxMessageSize, null));
    }
    int permits;
    try {
      permits = budget.acquire(message.getSerializedSize());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(new InstructionTimeoutException(id,
          "interrupted while waiting to send " + kind));
    }
    heldBytes.addAndGet(permits);
    ClientDisconnectedException failure = null;
    boolean readNow = !readsAhead(message);
    synchronized (lock) {
      if (closed) {
        releaseBudget();
        return CompletableFuture.failedFuture(new ClientDisconnectedException(id,
            "cannot send " + kind + ": the client is no longer connected", null));
      }
      if (pending != null) {
        releaseBudget();
        throw new IllegalStateException("client " + id + " still owes an answer to "
            + pendingKind + "; Flower allows one instruction at a time");
      }
      try {
        out.onNext(message);
        traffic.sent(message.getSerializedSize());
        if (out.isReady()) {
          releaseBudget();
        }
        pending = f;
        pendingKind = kind;
        pendingTimeoutValue = timeout;
        reading = false;
        if (readNow) {
          startReadingLocked();
        }
      } catch (StatusRuntimeException e) {
        closed = true;
        failure = new ClientDisconnectedException(id, "the stream ended while sending " + kind, e);
      }
    }
    if (failure == null) {
      if (!readNow) {
        // Outside the lock: admission may call back into startReading.
        inbound.admit(this, message.getSerializedSize());
      }
      return f;
    }
    releaseBudget();
    closeInbound();
    onClose.accept(this);
    f.completeExceptionally(failure);
    return f;
  }

  /** Whether the answer to {@code message} waits for the inbound budget: a fit answer of size. */
  private static boolean readsAhead(ServerMessage message) {
    return message.hasFitIns() && InboundBudget.readsAhead(message.getSerializedSize());
  }

  /**
   * Asks gRPC for the pending instruction's answer and starts its timeout, holding {@code
   * permits} of the inbound budget until the round takes the answer.
   *
   * @return false, holding nothing, if there is no pending instruction any more or it is already
   *     being read
   */
  @Override
  public boolean startReading(int permits) {
    synchronized (lock) {
      if (closed || pending == null || reading) {
        return false;
      }
      readPermits.addAndGet(permits);
      startReadingLocked();
      return true;
    }
  }

  private void startReadingLocked() {
    reading = true;
    CompletableFuture<ClientMessage> f = pending;
    pendingTimeoutValue.ifPresent(t -> pendingTimeout = timer.schedule(() -> expire(f, t),
        t.toNanos(), TimeUnit.NANOSECONDS));
    try {
      out.request(1);
    } catch (IllegalStateException | StatusRuntimeException e) {
      LOG.debug("stream of client {} could not be asked for its answer", id, e);
    }
  }

  /** Whether the pending instruction's answer waits for the inbound budget. */
  @Override
  public boolean awaitingAdmission() {
    synchronized (lock) {
      return pending != null && !reading;
    }
  }

  /** Reads the pending instruction's answer at once if it is waiting for the inbound budget. */
  public void expedite() {
    if (awaitingAdmission()) {
      inbound.expedite(this);
    }
  }

  /**
   * The round has taken (or given up on) this client's last answer: its share of the inbound
   * budget goes back. Idempotent.
   */
  public void releaseAnswer() {
    inbound.release(readPermits.getAndSet(0));
  }

  /** Called by grpc when the stream can take more: the last instruction has been written out. */
  void onReady() {
    if (out.isReady()) {
      releaseBudget();
    }
  }

  private void releaseBudget() {
    budget.release(heldBytes.getAndSet(0));
  }

  private void expire(CompletableFuture<ClientMessage> f, Duration t) {
    String kind;
    synchronized (lock) {
      if (pending != f) {
        return;
      }
      kind = pendingKind;
      clearPendingLocked();
      endLocked(Status.DEADLINE_EXCEEDED.withDescription("no answer to " + kind + " within " + t));
    }
    LOG.warn("client {} did not answer {} within {}; its stream is closed", id, kind, t);
    closeInbound();
    onClose.accept(this);
    f.completeExceptionally(new InstructionTimeoutException(id, "no answer to " + kind
        + " within " + t));
  }

  /**
   * Gives up on {@code f} if it is still the outstanding instruction (its caller stopped
   * waiting): the stream is closed with DEADLINE_EXCEEDED, as after a timeout.
   */
  public void abandon(CompletableFuture<ClientMessage> f, String why) {
    synchronized (lock) {
      if (pending != f) {
        return;
      }
      clearPendingLocked();
      endLocked(Status.DEADLINE_EXCEEDED.withDescription(why));
    }
    LOG.warn("client {}: {}; its stream is closed", id, why);
    closeInbound();
    onClose.accept(this);
    f.completeExceptionally(new InstructionTimeoutException(id, why));
  }

  /** Called with each message the client sends. */
  void received(ClientMessage message) {
    traffic.received(message.getSerializedSize());
    CompletableFuture<ClientMessage> f;
    synchronized (lock) {
      f = pending;
      if (f == null) {
        if (closed) {
          return;
        }
        endLocked(Status.FAILED_PRECONDITION.withDescription(
            "the server speaks first; a client answers only when asked"));
      } else {
        clearPendingLocked();
      }
    }
    if (f == null) {
      LOG.warn("client {} sent {} without being asked; its stream is closed", id,
          message.getMsgCase());
      closeInbound();
      onClose.accept(this);
      return;
    }
    f.complete(message);
  }

  /** Called once when the client's side of the stream ends, with the error if there was one. */
  void streamEnded(Throwable cause) {
    CompletableFuture<ClientMessage> f;
    String kind;
    synchronized (lock) {
      if (closed && pending == null) {
        return;
      }
      f = pending;
      kind = pendingKind;
      clearPendingLocked();
      if (!closed) {
        closed = true;
        if (cause == null) {
          finishQuietly();
        }
      }
      releaseBudget();
    }
    LOG.info("client {} disconnected{}", id, cause == null ? "" : ": " + describe(cause));
    closeInbound();
    onClose.accept(this);
    if (f != null) {
      f.completeExceptionally(new ClientDisconnectedException(id,
          "the stream ended before the answer to " + kind, cause));
    }
  }

  /** Ends the stream normally (the client has been told to go, or the server stops). */
  public void finish() {
    CompletableFuture<ClientMessage> f = null;
    synchronized (lock) {
      // Already closed: the stream may have ended on another thread that has not unregistered
      // it yet; only the unregistering below is left to do.
      if (!closed) {
        f = pending;
        clearPendingLocked();
        closed = true;
        finishQuietly();
        releaseBudget();
      }
    }
    closeInbound();
    onClose.accept(this);
    if (f != null) {
      f.completeExceptionally(new ClientDisconnectedException(id, "the server closed the stream",
          null));
    }
  }

  /** A closed stream reads nothing more: it leaves the inbound queue and gives back its share. */
  private void closeInbound() {
    inbound.forget(this);
    releaseAnswer();
  }

  private void clearPendingLocked() {
    if (pendingTimeout != null) {
      pendingTimeout.cancel(false);
    }
    reading = false;
    pending = null;
    pendingKind = null;
    pendingTimeout = null;
  }

  private void endLocked(Status status) {
    closed = true;
    releaseBudget();
    try {
      out.onError(status.asRuntimeException());
    } catch (IllegalStateException | StatusRuntimeException e) {
      LOG.debug("stream of client {} was already closed", id, e);
    }
  }

  private void finishQuietly() {
    try {
      out.onCompleted();
    } catch (IllegalStateException | StatusRuntimeException e) {
      LOG.debug("stream of client {} was already closed", id, e);
    }
  }

  private static String describe(Throwable t) {
    return t instanceof StatusRuntimeException s ? s.getStatus().toString() : t.toString();
  }

  /**
   * A secure pass's stage ({@value io.tributary.flower.passes.SecurePassMessages#MESSAGE_TYPE}),
   * the only message a Join stream carries besides the server's instructions: sent as a FitIns
   * without parameters, its records in the config ({@link
   * io.tributary.flower.passes.JoinPassLayout}), and the FitRes's metrics read back into the
   * reply's records. The future fails with a {@link ClientResultException} when the client
   * answers with another message or a non-OK status (it dropped out, as a Fleet node that replies
   * with an error), and with a {@link io.tributary.flower.passes.JoinPassLayout.MalformedException}
   * when its FitRes does not read as a stage's reply (parameters, a key of no reply record).
   */
  @Override
  public CompletableFuture<io.tributary.flower.records.RecordDict> message(String type,
      io.tributary.flower.records.RecordDict content, String group, Optional<Duration> timeout) {
    if (!type.equals(io.tributary.flower.passes.SecurePassMessages.MESSAGE_TYPE)) {
      return RemoteClient.super.message(type, content, group, timeout);
    }
    ServerMessage ins = ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(io.tributary.flower.internal.proto.Parameters.newBuilder()
            .setTensorType(tensorType))
        .putAllConfig(io.tributary.flower.internal.ScalarCodec.toProto(
            io.tributary.flower.passes.JoinPassLayout.fitInsConfig(content)))).build();
    CompletableFuture<io.tributary.flower.records.RecordDict> out = new CompletableFuture<>();
    request(ins, timeout).whenComplete((answer, failed) -> {
      if (failed != null) {
        out.completeExceptionally(failed);
        return;
      }
      try {
        out.complete(stageReply(answer));
      } catch (ClientResultException | io.tributary.flower.passes.JoinPassLayout
          .MalformedException e) {
        out.completeExceptionally(e);
      }
    });
    return out;
  }

  /** The stage's reply a FitRes carries. */
  private io.tributary.flower.records.RecordDict stageReply(ClientMessage answer)
      throws io.tributary.flower.passes.JoinPassLayout.MalformedException {
    if (!answer.hasFitRes()) {
      throw new ClientResultException(id, "answered a secure pass's FitIns with "
          + answer.getMsgCase(), null);
    }
    ClientMessage.FitRes res = answer.getFitRes();
    if (res.getStatus().getCode() != io.tributary.flower.internal.proto.Code.OK) {
      throw new ClientResultException(id, "a secure pass's FitRes reported "
          + res.getStatus().getCode() + ": " + res.getStatus().getMessage(), null);
    }
    if (res.getParameters().getTensorsCount() != 0) {
      throw new io.tributary.flower.passes.JoinPassLayout.MalformedException("the FitRes "
          + "carries " + res.getParameters().getTensorsCount() + " tensors; a stage's reply "
          + "carries none");
    }
    if (res.getMetricsCount() > io.tributary.flower.passes.JoinPassLayout.MAX_ENTRIES) {
      throw new io.tributary.flower.passes.JoinPassLayout.MalformedException("the FitRes "
          + "metrics hold " + res.getMetricsCount() + " entries, over "
          + io.tributary.flower.passes.JoinPassLayout.MAX_ENTRIES);
    }
    java.util.Map<String, io.tributary.flower.Scalar> metrics;
    try {
      metrics = io.tributary.flower.internal.ScalarCodec.fromProto(res.getMetricsMap());
    } catch (io.tributary.flower.internal.MalformedMessageException e) {
      throw new io.tributary.flower.passes.JoinPassLayout.MalformedException(e.getMessage());
    }
    return io.tributary.flower.passes.JoinPassLayout.reply(metrics);
  }

  @Override
  public String toString() {
    return "ClientProxy[" + id + ", " + tensorType + "]";
  }
}
