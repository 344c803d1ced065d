package io.tributary.flower;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.tributary.flower.client.internal.Conversation;
import io.tributary.flower.client.internal.InstructionHandler;
import io.tributary.flower.client.internal.JoinSession;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects a {@link FlowerClient} to a Flower-protocol server and answers its instructions until
 * the server says goodbye or {@link #stop()} is called. Made by {@link FlowerClientBuilder}.
 *
 * <p>The server speaks first; each instruction gets exactly one answer. {@code ReconnectIns(0)}
 * is answered with {@code DisconnectRes(RECONNECT)} and ends the run; {@code ReconnectIns(n)}
 * likewise, then the runner waits n seconds and joins again. When the server is unreachable or
 * the stream breaks, the runner retries after the {@link Backoff} delays and gives up after its
 * maximum of consecutive failed attempts. A server that refuses the client ({@code
 * UNAUTHENTICATED}, {@code PERMISSION_DENIED}, {@code UNIMPLEMENTED}, {@code INVALID_ARGUMENT},
 * {@code FAILED_PRECONDITION}) ends the run at once: trying again cannot help.
 *
 * <p>A runner runs once. The client's methods are called on the running thread.
 */
public final class FlowerClientRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FlowerClientRunner.class);
  /**
   * The longest reconnect delay a server may ask for, about 292 years (the most nanoseconds a
   * long holds); {@code ReconnectIns} with more is a protocol error that ends the run with a
   * {@link ConnectionFailedException}.
   */
  public static final long MAX_RECONNECT_SECONDS = Long.MAX_VALUE / 1_000_000_000L;
  private static final Set<Status.Code> REFUSALS = EnumSet.of(Status.Code.UNAUTHENTICATED,
      Status.Code.PERMISSION_DENIED, Status.Code.UNIMPLEMENTED, Status.Code.INVALID_ARGUMENT,
      Status.Code.FAILED_PRECONDITION);

  /** Why a run ended normally. */
  public enum Outcome {
    /** The server sent {@code ReconnectIns(0)}. */
    DISCONNECTED_BY_SERVER,
    /** {@link #stop()} was called. */
    STOPPED
  }

  private final ManagedChannel channel;
  private final boolean ownsChannel;
  private final CallOptions callOptions;
  private final Metadata headers;
  private final Backoff backoff;
  private final ConnectionListener listener;
  private final Conversation conversation;
  private final AtomicBoolean started = new AtomicBoolean();
  private final CountDownLatch stopLatch = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicInteger connections = new AtomicInteger();
  private volatile boolean stopping;
  private volatile JoinSession current;

  FlowerClientRunner(FlowerClientBuilder b, ManagedChannel channel, boolean ownsChannel) {
    this.channel = channel;
    this.ownsChannel = ownsChannel;
    this.callOptions = CallOptions.DEFAULT.withMaxInboundMessageSize(b.maxMessageSize())
        .withMaxOutboundMessageSize(b.maxMessageSize());
    this.headers = b.headers();
    this.backoff = b.backoff();
    this.listener = b.listener();
    this.conversation = new Conversation(new InstructionHandler(b.client(), b.serializers()),
        b.serializers(), () -> stopping);
  }

  /** A builder for {@code client}. */
  public static FlowerClientBuilder builder(FlowerClient client) {
    return new FlowerClientBuilder(client);
  }

  /**
   * Runs the client on this thread until the server disconnects it or {@link #stop()} is called.
   *
   * @throws ConnectionFailedException if the server refused the client or stayed unreachable
   * @throws InterruptedException if this thread was interrupted
   * @throws IllegalStateException if this runner has already run
   */
  public Outcome run() throws ConnectionFailedException, InterruptedException {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("a FlowerClientRunner runs once");
    }
    try {
      return loop();
    } finally {
      if (ownsChannel) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      finished.countDown();
    }
  }

  /** Runs the client on a new thread; the future completes as {@link #run()} returns. */
  public CompletableFuture<Outcome> start() {
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    Thread.ofPlatform().name("flower-client").start(() -> {
      try {
        result.complete(run());
      } catch (ConnectionFailedException | InterruptedException | RuntimeException e) {
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  /**
   * Asks the run to end: a wait is cut short, an open stream is cancelled once the operation in
   * progress (if any) returns. Does not wait; {@link #close()} does.
   */
  public void stop() {
    stopping = true;
    stopLatch.countDown();
    JoinSession s = current;
    if (s != null) {
      s.requestStop();
    }
  }

  /** Stops and, if the run has started, waits for it to end. */
  @Override
  public void close() throws InterruptedException {
    stop();
    if (started.get()) {
      finished.await();
    } else if (ownsChannel) {
      channel.shutdownNow();
    }
  }

  /** How many streams this runner has opened so far. */
  public int connections() {
    return connections.get();
  }

  private Outcome loop() throws ConnectionFailedException, InterruptedException {
    SplittableRandom random = backoff.newRandom();
    int failures = 0;
    while (!stopping) {
      JoinSession session = JoinSession.open(channel, callOptions, headers);
      connections.incrementAndGet();
      current = session;
      if (stopping) {
        session.requestStop();
      }
      Conversation.End end = conversation.run(session);
      current = null;
      switch (end) {
        case Conversation.Stopped s -> {
          log.info("stopped");
          return Outcome.STOPPED;
        }
        case Conversation.Reconnect r when r.seconds() > MAX_RECONNECT_SECONDS ->
          throw new ConnectionFailedException("protocol error: the server asked this client to "
              + "reconnect in " + r.seconds() + " s, more than the longest wait it can take ("
              + MAX_RECONNECT_SECONDS + " s)", null);
        case Conversation.Reconnect r when r.seconds() == 0 -> {
          log.info("the server disconnected this client (ReconnectIns 0); done");
          return Outcome.DISCONNECTED_BY_SERVER;
        }
        case Conversation.Reconnect r -> {
          failures = 0;
          log.info("the server asked this client to reconnect in {} s", r.seconds());
          listener.reconnectRequested(r.seconds());
          if (pause(Duration.ofSeconds(r.seconds()))) {
            return Outcome.STOPPED;
          }
        }
        case Conversation.Lost lost -> {
          failures = lost.spoke() ? 1 : failures + 1;
          Status st = lost.status();
          if (REFUSALS.contains(st.getCode())) {
            throw new ConnectionFailedException("the server refused this client: " + st.getCode()
                + (st.getDescription() == null ? "" : " (" + st.getDescription() + ")"),
                st.asRuntimeException());
          }
          if (failures >= backoff.maxAttempts()) {
            throw new ConnectionFailedException("gave up after " + failures
                + " failed attempts to reach the server; last: " + describe(st),
                st.asRuntimeException());
          }
          Duration wait = backoff.delay(failures, random);
          log.warn("connection to the server lost or refused ({}); attempt {} of {} in {} ms",
              describe(st), failures + 1, backoff.maxAttempts(), wait.toMillis());
          listener.lost(describe(st), wait, failures + 1, backoff.maxAttempts());
          if (pause(wait)) {
            return Outcome.STOPPED;
          }
        }
      }
    }
    return Outcome.STOPPED;
  }

  /** Waits unless stopped first; true if stopped. */
  private boolean pause(Duration d) throws InterruptedException {
    return stopLatch.await(d.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static String describe(Status st) {
    return st.getCode() + (st.getDescription() == null ? "" : ": " + st.getDescription());
  }
}
