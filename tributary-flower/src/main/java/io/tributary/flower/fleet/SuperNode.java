package io.tributary.flower.fleet;

import com.google.protobuf.ByteString;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.MethodDescriptor;
import io.grpc.TlsChannelCredentials;
import io.tributary.flower.Backoff;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.fleet.internal.FleetClient;
import io.tributary.flower.fleet.internal.FleetException;
import io.tributary.flower.fleet.internal.FleetRpc;
import io.tributary.flower.fleet.internal.GrpcFleetClient;
import io.tributary.flower.fleet.internal.HostPort;
import io.tributary.flower.fleet.internal.HttpFleetClient;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.fleet.internal.TlsProbe;
import io.tributary.flower.fleet.internal.RootCertificates;
import io.tributary.flower.fleet.internal.RunConfigs;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.GetFabRequest;
import io.tributary.flower.fleet.internal.proto.GetRunRequest;
import io.tributary.flower.fleet.internal.proto.Node;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PullObjectResponse;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.Run;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetRequest;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flower SuperNode in Java: joins a Flower SuperLink over the Fleet API and answers every
 * message of every run with a Java {@link ClientApp}, as {@code flower-supernode} does with a
 * Python one.
 *
 * <p><b>Transport</b> ({@link Builder#transport}): HTTP by default, as flower-supernode 1.40+
 * ({@link FleetTransport#http()}; {@code http("/api/v0/fleet")} reaches Flower 1.27-1.39's REST
 * transport), or Flower's gRPC service ({@link FleetTransport#grpcRere()}, SuperLinks up to 1.42).
 * A SuperLink that refuses the node's identity (HTTP 401/403, gRPC {@code UNAUTHENTICATED}) stops
 * it with {@link #failure()}; one that is unreachable, overloaded (503/504) or answers garbage is
 * retried with {@link Backoff}.
 *
 * <p><b>Protocol</b> (as Flower's {@code flwr/supernode/start_client_internal.py} and its
 * connections drive it): every call carries the node's public key, a timestamp and its signature
 * ({@link NodeAuth}). Without configured keys the node
 * makes a SECP384R1 pair and registers its public key ({@code RegisterNode}); then it activates
 * ({@code ActivateNode}, declaring its heartbeat interval, 30 s by default, within the SuperLink's
 * [10, 1800]) and sends {@code SendNodeHeartbeat} every (interval - 5 s) x 0.8 +- 10 % (a failed
 * one is retried after 1, 2, 4, ... up to 20 s, jittered, as Flower's). It polls
 * {@code PullMessages}; for a message it fetches the run ({@code GetRun}, {@code GetFab}, once per
 * run), pulls every object of the message's {@code ObjectTree} ({@code PullObject}, retried while
 * the SuperLink says it is not yet available), checks each against its id (SHA-256) and the tree
 * against the objects' heads (children in any order), measures what the message inflates to
 * against {@link Builder#maxInflatedBytes} and {@link Builder#maxElements} before allocating any
 * array, inflates each object once (a child several names refer to is shared), confirms receipt ({@code ConfirmMessageReceived}), runs the app, and
 * sends the reply: {@code PushMessages} with the reply's head and tree, then {@code PushObject}
 * for every object the SuperLink asks for. On {@link #close} it deactivates and, when it
 * registered itself, unregisters.
 *
 * <p><b>Which app runs a run.</b> The SuperNode does not run the FAB's Python code. A run whose
 * FAB id ({@code publisher/name}, from the app's {@code pyproject.toml}) was given an app with
 * {@link Builder#clientApp(String, ClientApp)} runs that app; any other run runs the default
 * {@link Builder#clientApp(ClientApp)}; without either, its messages get an error reply. The
 * run's config given to the app's {@link Context} is the FAB's {@code [tool.flwr.app.config]} with
 * the run's overrides on top. The node keeps one context state per run, or per series for the runs
 * of a newer SuperLink (Flower 1.40+) that name one, as Flower's SuperNode keeps its run-series
 * context; it stores the state after each handler call and counts the stores in
 * {@link Context#version()}.
 *
 * <p><b>Bad input.</b> A message that is too large, an object whose content does not hash to its
 * id, a malformed object or tree, an array record that does not convert or a message type the app
 * does not handle: the node replies with a Flower {@code Error} (code and reason) for that message
 * and goes on serving. It never runs the app on unverified data.
 *
 * <p><b>Reconnection.</b> When the SuperLink cannot be reached or goes away, the node retries with
 * {@link Backoff} delays (by default for ever) and activates again (registering again when the
 * SuperLink no longer knows it). A SuperLink that refuses a node it had been serving (gRPC
 * {@code UNAUTHENTICATED} or HTTP 401/403, as Flower's SuperLink answers "Invalid node ID" after a
 * restart without its database, or a Tributary server resumed with {@code --resume}) gets one
 * warning line, a new registration and activation; a refusal before the node's first pull of a
 * session stops it. Flower 1.27's {@code flower-supernode} exits there instead and is restarted by
 * whoever runs it.
 */
public final class SuperNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SuperNode.class);
  private static final double HEARTBEAT_CALL_TIMEOUT = 5;
  /** Flower's {@code HeartbeatSender}: retries back off exponentially up to 20 s. */
  private static final double HEARTBEAT_MAX_RETRY_DELAY = 20;

  private final Builder b;
  private final KeyPair keys;
  private final boolean selfRegistered;
  private final NodeAuth auth;
  private final Map<Long, RunState> runs = new ConcurrentHashMap<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final AtomicLong nodeId = new AtomicLong();
  private volatile boolean active;
  private volatile boolean leftCleanly;
  private final AtomicLong repliesSent = new AtomicLong();
  private volatile boolean stopping;
  private volatile FleetClient client;
  private volatile Thread thread;
  private volatile Throwable failure;

  /** A run as fetched: its app, its run config and where its context is kept. */
  private record RunState(Run run, ClientApp app, Map<String, Object> runConfig, String seriesId,
      String primaryTaskId) {
    /** One context per series, as Flower 1.40+'s SuperNode keeps it; per run without one. */
    String contextKey() {
      return seriesId.isEmpty() ? "run " + Long.toUnsignedString(run.getRunId())
          : "series " + seriesId;
    }
  }

  /** A context's state as the node stored it after a handler, and how many times it did. */
  private record StoredContext(RecordDict state, long version) {
    static final StoredContext FRESH = new StoredContext(RecordDict.empty(), 0);
  }

  private final Map<String, StoredContext> contexts = new ConcurrentHashMap<>();

  /** A connection and the deadline of its calls. */
  private record Link(FleetClient client, long timeoutMillis) {
    <Q extends com.google.protobuf.Message, R extends com.google.protobuf.Message> R call(
        MethodDescriptor<Q, R> method, Q request) {
      return client.call(method, request, timeoutMillis);
    }

    <Q extends com.google.protobuf.Message, R extends com.google.protobuf.Message> R call(
        MethodDescriptor<Q, R> method, Q request, long millis) {
      return client.call(method, request, millis);
    }
  }

  private SuperNode(Builder b) {
    this.b = b;
    this.selfRegistered = b.keys == null;
    this.keys = b.keys != null ? b.keys : NodeAuth.generate();
    this.auth = new NodeAuth(keys);
  }

  /** A SuperNode for the SuperLink's Fleet API at {@code superlink} ({@code host:port}). */
  public static Builder builder(String superlink) {
    return new Builder(superlink);
  }

  /** How long a node's HTTP client waits for a connection to the SuperLink. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /**
   * A JDK HTTP client set up as a node's own (HTTP/1.1, no redirects, a 10 s connect timeout,
   * the JDK's default trust) for many nodes of one JVM to share ({@link Builder#httpClient});
   * the caller closes it after the nodes.
   */
  public static HttpClient newHttpClient() {
    return HttpFleetClient.newHttpClient(null, CONNECT_TIMEOUT);
  }

  /** Starts serving on a thread of its own; returns at once. */
  public synchronized SuperNode start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    thread = Thread.ofPlatform().name("supernode-" + b.address).daemon(true).start(this::serve);
    return this;
  }

  /** Serves on the calling thread until {@link #close}. */
  public void run() {
    synchronized (this) {
      if (thread != null) {
        throw new IllegalStateException("already started");
      }
      thread = Thread.currentThread();
    }
    serve();
  }

  /**
   * The node id the SuperLink gave last, as the bits of Flower's {@code uint64} (use
   * {@link Long#toUnsignedString}); 0 before the first activation.
   */
  public long nodeId() {
    return nodeId.get();
  }

  /**
   * True when {@link #close} deactivated the node and, when it registered itself, unregistered
   * it, both acknowledged by the SuperLink.
   */
  public boolean leftCleanly() {
    return leftCleanly;
  }

  /** True while the node is active at the SuperLink. */
  public boolean isActive() {
    return active;
  }

  /** Replies sent so far. */
  public long repliesSent() {
    return repliesSent.get();
  }

  /** Waits until the node is active; true if it became so in time. */
  public boolean awaitActive(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!active && System.nanoTime() < end && stopped.getCount() > 0) {
      Thread.sleep(20);
    }
    return active;
  }

  /**
   * Stops: finishes the message in hand, deactivates and unregisters (when it registered
   * itself); waits for that up to 30 s plus the message in hand.
   */
  @Override
  public void close() throws InterruptedException {
    stopping = true;
    stopRequested.countDown();
    Thread t = thread;
    if (t != null && t != Thread.currentThread()) {
      stopped.await();
    }
  }

  /** Waits {@code millis} or until {@link #close}; false when stopping. */
  private boolean pause(long millis) throws InterruptedException {
    return !stopRequested.await(millis, TimeUnit.MILLISECONDS);
  }

  // ---------------------------------------------------------------- connection

  private FleetClient open() {
    return switch (b.transport) {
      case FleetTransport.Http h -> {
        String base = (b.insecure ? "http://" : "https://") + b.address + h.pathPrefix();
        yield b.httpClient != null
            ? new HttpFleetClient(b.httpClient, base, auth, versionHeaders(), b.maxResponseBytes)
            : new HttpFleetClient(base, b.rootCertificates == null ? null
                : RootCertificates.sslContext(b.rootCertificates), auth, versionHeaders(),
                b.maxResponseBytes, CONNECT_TIMEOUT);
      }
      case FleetTransport.GrpcRere g -> {
        ChannelCredentials creds;
        if (b.insecure) {
          creds = InsecureChannelCredentials.create();
        } else if (b.rootCertificates != null) {
          try {
            creds = TlsChannelCredentials.newBuilder().trustManager(b.rootCertificates.toFile())
                .build();
          } catch (IOException e) {
            throw new IllegalArgumentException("cannot read root certificates "
                + b.rootCertificates + ": " + e.getMessage());
          }
        } else {
          creds = TlsChannelCredentials.create();
        }
        int max = (int) Math.min(Integer.MAX_VALUE, b.maxResponseBytes);
        yield new GrpcFleetClient(Grpc.newChannelBuilder(b.address.toString(), creds)
            .intercept(auth).maxInboundMessageSize(max).build());
      }
    };
  }

  /**
   * What the node says it is on every HTTP call: Tributary's package name and version, and the
   * component {@code supernode}; a SuperLink that checks versions sees a package that is not
   * {@code flwr} and can tell it apart.
   */
  private static Map<String, String> versionHeaders() {
    return Map.of("flwr-package-name", "tributary", "flwr-package-version", Version.VALUE,
        "flwr-component-name", "supernode");
  }

  /** Whether the current session has pulled at least once since its activation. */
  private volatile boolean pulled;

  /** Whether a probe has told whether the SuperLink speaks TLS (probed until one tells). */
  private boolean tlsProbed;

  private void serve() {
    SplittableRandom jitter = b.backoff.newRandom();
    int failures = 0;
    try {
      while (!stopping) {
        boolean spoke = false;
        pulled = false;
        try {
          client = open();
          Link rpc = new Link(client, b.callTimeout.toMillis());
          long id = activate(rpc);
          spoke = true;
          failures = 0;
          session(rpc, id);
        } catch (FleetException e) {
          if (stopping) {
            break;
          }
          if (e.refusesNode()) {
            if (!pulled) {
              failure = new IllegalStateException("the SuperLink " + b.address
                  + " refused this node: " + e.getMessage());
              LOG.error("{}", failure.getMessage());
              return;
            }
            // A session that had been served is refused: the SuperLink lost its node records
            // (restarted, or resumed a run) and answers "Invalid node ID" as Flower's does.
            // Register and activate again; a refusal right after that still stops the node.
            LOG.warn("the SuperLink {} no longer knows node {} ({}); registering and activating"
                + " again", b.address, Long.toUnsignedString(nodeId.get()), e.getMessage());
          } else {
            if (b.insecure && !spoke && !tlsProbed && e.unanswered()) {
              // only when nothing answered (a plain-text answer is not TLS), until a probe tells
              TlsProbe.Result probe = TlsProbe.probe(b.address, Duration.ofSeconds(3));
              tlsProbed = probe != TlsProbe.Result.UNREACHABLE;
              if (probe == TlsProbe.Result.TLS) {
                // retrying in plain text cannot work: say so once and stop
                failure = new IllegalStateException("the SuperLink " + b.address + " speaks "
                    + "TLS, but this node connects without TLS (insecure); connect with TLS and "
                    + "the SuperLink's root certificates");
                LOG.error("{}", failure.getMessage());
                return;
              }
            }
            LOG.warn("SuperLink {}: {}; reconnecting", b.address, e.getMessage());
          }
          tell(o -> o.inactive(e.getMessage()));
        } catch (IllegalArgumentException | IllegalStateException e) {
          failure = e;
          LOG.error("cannot connect to {}: {}", b.address, e.getMessage());
          return;
        } catch (InterruptedException e) {
          break;
        } finally {
          FleetClient c = client;
          if (c != null && !stopping) {
            c.close();
          }
        }
        if (stopping) {
          break;
        }
        failures = spoke ? 1 : failures + 1;
        if (failures >= b.backoff.maxAttempts()) {
          failure = new IllegalStateException("gave up on " + b.address + " after " + failures
              + (failures == 1 ? " attempt" : " attempts"));
          LOG.error("{}", failure.getMessage());
          return;
        }
        try {
          pause(b.backoff.delay(failures, jitter).toMillis());
        } catch (InterruptedException e) {
          break;
        }
      }
    } finally {
      FleetClient c = client;
      if (c != null) {
        c.close();
      }
      stopped.countDown();
    }
  }

  private long activate(Link rpc) {
    if (selfRegistered) {
      try {
        rpc.call(FleetRpc.REGISTER_NODE, RegisterNodeFleetRequest.newBuilder()
            .setPublicKey(ByteString.copyFrom(auth.publicKeyPem())).build());
      } catch (FleetException e) {
        if (e.kind().endsSession()) {
          throw e;
        }
        // "Public key already in use" (gRPC FAILED_PRECONDITION; an HTTP 409, or the 500 of
        // Flower 1.27's REST transport): registered before this reconnection. Activation tells.
        LOG.debug("registration refused ({}); activating", e.getMessage());
      }
    }
    long id = rpc.call(FleetRpc.ACTIVATE_NODE, ActivateNodeRequest.newBuilder()
        .setPublicKey(ByteString.copyFrom(auth.publicKeyPem()))
        .setHeartbeatInterval(b.heartbeatInterval).build()).getNodeId();
    nodeId.set(id);
    active = true;
    LOG.info("SuperNode {} active at {}", Long.toUnsignedString(id), b.address);
    tell(o -> o.active(id, String.valueOf(b.address)));
    return id;
  }

  private void session(Link rpc, long id) throws InterruptedException {
    Node node = Node.newBuilder().setNodeId(id).build();
    Thread heartbeat = Thread.ofPlatform().name("supernode-heartbeat-" + id).daemon(true)
        .start(() -> heartbeats(rpc, node));
    try {
      while (!stopping) {
        PullMessagesResponse res = rpc.call(FleetRpc.PULL_MESSAGES,
            PullMessagesRequest.newBuilder().setNode(node).build());
        pulled = true;
        if (res.getMessagesListCount() == 0 || res.getMessageObjectTreesCount() == 0) {
          pause(b.pollInterval.toMillis());
          continue;
        }
        handle(rpc, node, res.getMessagesList(0), res.getMessageObjectTrees(0));
      }
    } finally {
      heartbeat.interrupt();
      active = false;
      if (stopping) {
        leave(rpc, id);
      }
    }
  }

  private void leave(Link rpc, long id) {
    boolean interrupted = Thread.interrupted();
    try {
      rpc.call(FleetRpc.DEACTIVATE_NODE, DeactivateNodeRequest.newBuilder().setNodeId(id).build(),
          5000);
      if (selfRegistered) {
        rpc.call(FleetRpc.UNREGISTER_NODE,
            UnregisterNodeFleetRequest.newBuilder().setNodeId(id).build(), 5000);
      }
      leftCleanly = true;
      LOG.info("SuperNode {} deactivated{}", Long.toUnsignedString(id), selfRegistered ? " and unregistered" : "");
    } catch (FleetException e) {
      LOG.warn("SuperNode {} could not leave cleanly: {}", Long.toUnsignedString(id),
          e.getMessage());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void heartbeats(Link rpc, Node node) {
    SplittableRandom r = new SplittableRandom();
    int failed = 0;
    while (!Thread.currentThread().isInterrupted() && !stopping) {
      // After a failed heartbeat, retry soon (1, 2, 4, ... up to 20 s, full jitter, as Flower's
      // HeartbeatSender): waiting the whole interval would let two failures in a row (a busy
      // SuperLink answering late) take the node offline.
      double next = failed > 0
          ? r.nextDouble() * Math.min(HEARTBEAT_MAX_RETRY_DELAY, Math.pow(2, failed - 1))
          : (b.heartbeatInterval - HEARTBEAT_CALL_TIMEOUT) * (0.8 + r.nextDouble(-0.1, 0.1));
      try {
        if (stopRequested.await((long) (next * 1000), TimeUnit.MILLISECONDS)) {
          return;
        }
        boolean ok = rpc.call(FleetRpc.HEARTBEAT, SendNodeHeartbeatRequest.newBuilder()
            .setNode(node).setHeartbeatInterval(b.heartbeatInterval).build(),
            (long) (HEARTBEAT_CALL_TIMEOUT * 1000)).getSuccess();
        failed = 0;
        if (!ok) {
          LOG.warn("the SuperLink does not recognize node {}; reconnecting", node.getNodeId());
          FleetClient c = client;
          if (c != null) {
            c.close();
          }
          return;
        }
      } catch (InterruptedException e) {
        return;
      } catch (FleetException e) {
        failed = Math.min(failed + 1, 30);
        LOG.debug("heartbeat failed: {}", e.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- messages

  private void handle(Link rpc, Node node, io.tributary.flower.fleet.internal.proto.Message head,
      ObjectTree tree) throws InterruptedException {
    long start = System.nanoTime();
    Metadata md = Protos.metadata(head.getMetadata());
    com.google.protobuf.UnknownFieldSet replyFields = Protos.replyFields(head.getMetadata());
    Message instruction = Message.ofContent(md, RecordDict.empty());
    Message reply;
    RunState run;
    try {
      run = run(rpc, node, md.runId());
    } catch (FleetException e) {
      if (e.kind().endsSession()) {
        throw e;
      }
      LOG.info("run {} is not available ({}); ignoring message {}", Long.toUnsignedString(
          md.runId()), e.getMessage(), md.messageId());
      observe(md, null, NodeMessage.Outcome.RUN_UNAVAILABLE, e.getMessage(), start, 0, 0);
      return;
    }
    Message message = null;
    long[] pulled = new long[1];
    try {
      message = receive(rpc, node, md, tree, pulled);
    } catch (Refused e) {
      LOG.warn("message {} refused: {}", md.messageId(), e.getMessage());
      reply = instruction.replyError(new MessageError(MessageError.MESSAGE_UNAVAILABLE,
          e.getMessage()));
      long out = send(rpc, node, reply, 0, replyFields);
      observe(md, null, out < 0 ? NodeMessage.Outcome.NOT_SENT : NodeMessage.Outcome.REFUSED,
          e.getMessage(), start, pulled[0], Math.max(out, 0));
      return;
    }
    if (run.app == null) {
      reply = message.replyError(new MessageError(MessageError.LOAD_CLIENT_APP_EXCEPTION,
          "no Java ClientApp for FAB '" + run.run.getFabId() + "'"));
    } else {
      reply = runApp(run, node.getNodeId(), message);
    }
    long out = send(rpc, node, reply, (System.nanoTime() - start) / 1e9, replyFields);
    observe(md, message, out < 0 ? NodeMessage.Outcome.NOT_SENT : reply.hasContent()
        ? NodeMessage.Outcome.REPLIED : NodeMessage.Outcome.ERROR_REPLIED,
        out < 0 ? "the SuperLink did not accept the reply" : reply.error()
            .map(MessageError::reason).orElse(""), start, pulled[0], Math.max(out, 0));
  }

  /**
   * Runs the app on {@code message} with the stored context, then stores the context again with
   * its version one higher, whatever the reply: Flower's SuperNode takes back the context of a
   * finished ClientApp the same way. Messages are handled one at a time, so the check Flower's
   * SuperNode makes against a concurrent execution's stale context cannot fail here.
   */
  private Message runApp(RunState run, long node, Message message) {
    String key = run.contextKey();
    StoredContext stored = contexts.getOrDefault(key, StoredContext.FRESH);
    Context context = new Context(run.run.getRunId(), node, b.nodeConfig, run.runConfig,
        stored.state, run.seriesId, run.primaryTaskId, stored.version);
    try {
      return run.app.handle(message, context);
    } finally {
      contexts.put(key, new StoredContext(context.state(), stored.version + 1));
    }
  }

  /** Tells the observer an event; what it throws is logged, never stopping the node. */
  private void tell(java.util.function.Consumer<NodeObserver> event) {
    try {
      event.accept(b.observer);
    } catch (RuntimeException e) {
      LOG.warn("the node's observer failed: {}", e.toString());
    }
  }

  /** Tells the observer, which must never stop the node. */
  private void observe(Metadata md, Message message, NodeMessage.Outcome outcome, String detail,
      long start, long bytesIn, long bytesOut) {
    if (b.observer == NodeObserver.NONE) {
      return;
    }
    NodeMessage m = new NodeMessage(md.runId(), md.messageId(), md.messageType(),
        round(md, message), outcome, detail == null ? "" : detail,
        (System.nanoTime() - start) / 1e9, bytesIn, bytesOut);
    tell(o -> o.messageHandled(m));
  }

  /** The server round a message is for, when its group id or config says. */
  private static java.util.OptionalLong round(Metadata md, Message message) {
    if (md.groupId().matches("[0-9]{1,9}")) {
      return java.util.OptionalLong.of(Long.parseLong(md.groupId()));
    }
    if (message != null && message.hasContent()) {
      var config = message.content().configRecords().get("config");
      if (config != null) {
        for (String key : List.of("server-round", "server_round")) {
          if (config.get(key) instanceof Long l) {
            return java.util.OptionalLong.of(l);
          }
        }
      }
    }
    return java.util.OptionalLong.empty();
  }

  private RunState run(Link rpc, Node node, long runId) {
    RunState s = runs.get(runId);
    if (s != null) {
      return s;
    }
    Run run = rpc.call(FleetRpc.GET_RUN,
        GetRunRequest.newBuilder().setNode(node).setRunId(runId).build()).getRun();
    Map<String, Object> config = new LinkedHashMap<>();
    if (!run.getFabHash().isEmpty()) {
      var fab = rpc.call(FleetRpc.GET_FAB, GetFabRequest.newBuilder().setNode(node)
          .setHashStr(run.getFabHash()).setRunId(runId).build()).getFab();
      config.putAll(RunConfigs.fromFab(fab.getContent().toByteArray()));
    }
    config.putAll(RunConfigs.fromScalars(run.getOverrideConfigMap()));
    ClientApp app = b.apps.getOrDefault(run.getFabId(), b.defaultApp);
    s = new RunState(run, app, Map.copyOf(config),
        Protos.newerField(run.getUnknownFields(), Protos.RUN_SERIES_ID),
        Protos.newerField(run.getUnknownFields(), Protos.RUN_PRIMARY_TASK_ID));
    LOG.info("run {}: FAB '{}' {} -> {}", Long.toUnsignedString(runId), run.getFabId(),
        run.getFabVersion(), app == null ? "no app" : "Java ClientApp " + app.messageTypes());
    runs.put(runId, s);
    return s;
  }

  /** An incoming message that cannot be accepted. */
  private static final class Refused extends Exception {
    Refused(String message) {
      super(message);
    }
  }

  private Message receive(Link rpc, Node node, Metadata md, ObjectTree tree, long[] pulled)
      throws Refused, InterruptedException {
    String id = md.messageId();
    if (!tree.getObjectId().equals(id)) {
      throw new Refused("the object tree's root " + tree.getObjectId()
          + " is not the message id " + id);
    }
    List<ObjectTree> order = new ArrayList<>();
    postOrder(tree, order, 0);
    if (order.size() > b.maxObjects) {
      throw new Refused("the message has " + order.size() + " objects, more than "
          + b.maxObjects);
    }
    Map<String, byte[]> objects = new LinkedHashMap<>();
    long total = 0;
    for (ObjectTree t : order) {
      String oid = t.getObjectId();
      if (objects.containsKey(oid)) {
        continue;
      }
      byte[] c = pull(rpc, node, md.runId(), oid);
      total += c.length;
      pulled[0] = total;
      if (total > b.maxMessageBytes) {
        throw new Refused("the message exceeds " + b.maxMessageBytes + " bytes");
      }
      if (!ObjectCodec.objectId(c).equals(oid)) {
        throw new Refused("object " + oid + " does not hash to its id");
      }
      objects.put(oid, c);
    }
    try {
      ObjectCodec.checkTree(tree, objects, b.limits.maxDepth());
    } catch (ObjectCodec.BadObjectException e) {
      throw new Refused(e.getMessage());
    }
    rpc.call(FleetRpc.CONFIRM_MESSAGE_RECEIVED, ConfirmMessageReceivedRequest.newBuilder()
        .setNode(node).setRunId(md.runId()).setMessageObjectId(id).build());
    try {
      return ObjectCodec.inflate(id, objects, b.limits);
    } catch (ObjectCodec.BadObjectException e) {
      throw new Refused(e.getMessage());
    }
  }

  private void postOrder(ObjectTree t, List<ObjectTree> out, int depth) throws Refused {
    if (depth > b.limits.maxDepth()) {
      throw new Refused("the object tree is deeper than " + b.limits.maxDepth());
    }
    for (ObjectTree c : t.getChildrenList()) {
      postOrder(c, out, depth + 1);
    }
    if (out.size() > b.maxObjects) {
      throw new Refused("the message has more than " + b.maxObjects + " objects");
    }
    out.add(t);
  }

  private byte[] pull(Link rpc, Node node, long runId, String oid)
      throws Refused, InterruptedException {
    long delay = 100;
    long deadline = System.nanoTime() + b.pullTimeout.toNanos();
    while (true) {
      PullObjectResponse r = rpc.call(FleetRpc.PULL_OBJECT, PullObjectRequest.newBuilder()
          .setNode(node).setRunId(runId).setObjectId(oid).build());
      if (!r.getObjectFound()) {
        throw new Refused("the SuperLink does not know object " + oid);
      }
      if (r.getObjectAvailable()) {
        return r.getObjectContent().toByteArray();
      }
      if (System.nanoTime() > deadline) {
        throw new Refused("object " + oid + " did not become available");
      }
      Thread.sleep(delay);
      delay = Math.min(delay * 2, 2000);
    }
  }

  /** Sends the reply; returns the bytes of the objects pushed, or -1 when not accepted. */
  private long send(Link rpc, Node node, Message reply, double runtime,
      com.google.protobuf.UnknownFieldSet replyFields) {
    ObjectCodec.Deflated d = ObjectCodec.deflate(reply, replyFields);
    Message sent = reply.withMessageId(d.rootId());
    try {
      // A server that bounds the replies it reads ahead holds this call until it has room.
      PushMessagesResponse res = rpc.call(FleetRpc.PUSH_MESSAGES, PushMessagesRequest.newBuilder()
          .setNode(node).addMessagesList(Protos.messageHead(sent, replyFields))
          .addMessageObjectTrees(d.tree()).addClientappRuntimeList(runtime).build(),
          Math.max(rpc.timeoutMillis(), b.replyTimeout.toMillis()));
      Set<String> wanted = new HashSet<>(res.getObjectsToPushList());
      String sessionId = res.getSessionId();
      long pushed = 0;
      for (Map.Entry<String, byte[]> e : d.objects().entrySet()) {
        if (!wanted.contains(e.getKey())) {
          continue;
        }
        pushed += e.getValue().length;
        boolean stored = rpc.call(FleetRpc.PUSH_OBJECT, PushObjectRequest.newBuilder()
            .setNode(node).setRunId(sent.metadata().runId()).setObjectId(e.getKey())
            .setObjectContent(com.google.protobuf.UnsafeByteOperations.unsafeWrap(e.getValue()))
            .setSessionId(sessionId).build()).getStored();
        if (!stored) {
          LOG.warn("the SuperLink did not store object {} of reply {}", e.getKey(), d.rootId());
        }
      }
      repliesSent.incrementAndGet();
      LOG.info("sent {} reply {} ({})", sent.metadata().messageType(), d.rootId(),
          sent.hasContent() ? "content" : sent.error().orElseThrow());
      return pushed;
    } catch (FleetException e) {
      if (e.kind().endsSession()) {
        throw e;
      }
      LOG.warn("reply {} not accepted: {}", d.rootId(), e.getMessage());
      return -1;
    }
  }

  /** Why the node stopped serving on its own, if it did. */
  public Throwable failure() {
    return failure;
  }

  /** Settings of a {@link SuperNode}. */
  public static final class Builder {
    private final HostPort address;
    private FleetTransport transport = FleetTransport.http();
    private boolean insecure;
    private Path rootCertificates;
    private KeyPair keys;
    private Map<String, Object> nodeConfig = Map.of();
    private ClientApp defaultApp;
    private final Map<String, ClientApp> apps = new LinkedHashMap<>();
    private double heartbeatInterval = 30;
    private Duration pollInterval = Duration.ofSeconds(3);
    private Duration callTimeout = Duration.ofSeconds(60);
    private Duration pullTimeout = Duration.ofMinutes(10);
    private Duration replyTimeout = Duration.ofMinutes(30);
    private Backoff backoff = Backoff.DEFAULT.withMaxAttempts(Integer.MAX_VALUE);
    private long maxMessageBytes = Math.min(2L * 1024 * 1024 * 1024 - 64,
        Runtime.getRuntime().maxMemory() / 5);
    private ObjectCodec.Limits limits = ObjectCodec.Limits.fromHeap();
    private long maxResponseBytes = 64 * 1024 * 1024;
    private int maxObjects = 1 << 20;
    private NodeObserver observer = NodeObserver.NONE;
    private HttpClient httpClient;

    private Builder(String superlink) {
      this.address = HostPort.parse(superlink);
    }

    /**
     * How to reach the Fleet API: {@link FleetTransport#http()} (the default, as
     * flower-supernode 1.40+), {@code http("/api/v0/fleet")} for Flower 1.27-1.39's REST
     * transport, or {@link FleetTransport#grpcRere()} for Flower up to 1.42's gRPC service.
     */
    public Builder transport(FleetTransport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** Plain text, without TLS ({@code --insecure}): {@code http://} or plain gRPC. */
    public Builder insecure(boolean insecure) {
      this.insecure = insecure;
      return this;
    }

    /** TLS trusting these PEM root certificates ({@code --root-certificates}). */
    public Builder rootCertificates(Path pem) {
      this.rootCertificates = pem;
      return this;
    }

    /**
     * Calls the HTTP Fleet API through {@code client} ({@link SuperNode#newHttpClient}), which
     * other nodes of this JVM may share, instead of a JDK client of the node's own with its own
     * selector thread, executor and connections: for many nodes in one process. The node never
     * closes it (close it after the nodes). Its TLS trust is the client's, so it excludes {@link
     * #rootCertificates}; it must not follow redirects. Over gRPC it is not used.
     */
    public Builder httpClient(HttpClient client) {
      this.httpClient = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * The node's EC key pair, registered with the SuperLink beforehand (Flower's
     * {@code --auth-supernode-private-key}; {@link NodeKeys} reads it from OpenSSH or PEM key
     * files); without it the node makes and registers its own.
     */
    public Builder authKeys(KeyPair keys) {
      this.keys = keys;
      return this;
    }

    /** The node config handlers see ({@code --node-config}). */
    public Builder nodeConfig(Map<String, ?> config) {
      this.nodeConfig = Map.copyOf(config);
      return this;
    }

    /** The app for every run no other app was given for. */
    public Builder clientApp(ClientApp app) {
      this.defaultApp = Objects.requireNonNull(app, "app");
      return this;
    }

    /** The app for runs of the FAB {@code fabId} ({@code publisher/name}). */
    public Builder clientApp(String fabId, ClientApp app) {
      apps.put(Objects.requireNonNull(fabId, "fabId"), Objects.requireNonNull(app, "app"));
      return this;
    }

    /** The heartbeat interval declared to the SuperLink, in seconds, in [10, 1800]. */
    public Builder heartbeatInterval(double seconds) {
      if (!(seconds >= 10 && seconds <= 1800)) {
        throw new IllegalArgumentException("heartbeat interval must be in [10, 1800] s, got "
            + seconds);
      }
      this.heartbeatInterval = seconds;
      return this;
    }

    /** The wait between polls when there is no message (Flower's: 3 s). */
    public Builder pollInterval(Duration d) {
      this.pollInterval = Objects.requireNonNull(d);
      return this;
    }

    /** How reconnections are spaced, and after how many failures in a row the node gives up. */
    public Builder backoff(Backoff backoff) {
      this.backoff = Objects.requireNonNull(backoff);
      return this;
    }

    /**
     * The largest message accepted, its pulled objects together; larger ones get an error reply.
     * By default a fifth of the maximum heap (at most 2 GiB - 64): the node holds the pulled
     * objects, the arrays made of them, the app's reply and its objects at once.
     */
    public Builder maxMessageBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("the message bound must be positive, got " + bytes);
      }
      this.maxMessageBytes = bytes;
      return this;
    }

    /**
     * The most array bytes a message may stand for once inflated, counted once per name that
     * refers to them (a record named 300 times counts 300 times), checked before any is
     * allocated; larger ones get an error reply. By default a quarter of the maximum heap.
     */
    public Builder maxInflatedBytes(long bytes) {
      this.limits = limits.withMaxInflatedBytes(bytes);
      return this;
    }

    /**
     * The most record entries and array chunk references a message may stand for once inflated,
     * counted the same way; by default one per 256 bytes of maximum heap.
     */
    public Builder maxElements(long elements) {
      this.limits = limits.withMaxElements(elements);
      return this;
    }

    /**
     * The largest single response accepted, HTTP body or gRPC message (one object: chunks are
     * 5 MiB); 64 MiB by default.
     */
    public Builder maxResponseBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("the response bound must be at least 1024 bytes, got "
            + bytes);
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /** The largest single gRPC response accepted; {@link #maxResponseBytes} for both transports. */
    public Builder maxGrpcMessageBytes(int bytes) {
      return maxResponseBytes(bytes);
    }

    /**
     * Tells {@code observer} when the node is active and each message it handles, with its
     * outcome (a live page of the node is one).
     */
    public Builder observer(NodeObserver observer) {
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /** The deadline of each call (but a reply's {@code PushMessages}: {@link #replyTimeout}). */
    public Builder callTimeout(Duration d) {
      this.callTimeout = Objects.requireNonNull(d);
      return this;
    }

    /**
     * The deadline of the call that pushes a reply's head ({@code PushMessages}), 30 min by
     * default, the call timeout if that is longer. A server that bounds the replies it reads
     * ahead, as Tributary's does, holds the call until it has room, which can take most of a
     * round; Flower's own SuperNodes set no deadline on it.
     */
    public Builder replyTimeout(Duration d) {
      this.replyTimeout = Objects.requireNonNull(d);
      return this;
    }

    /**
     * The node; checks the settings that can be checked before connecting.
     *
     * @throws IllegalArgumentException for root certificates that are not a PEM certificate file,
     *     or given together with {@link #insecure}
     */
    public SuperNode build() {
      if (insecure && rootCertificates != null) {
        throw new IllegalArgumentException("insecure and root certificates exclude each other");
      }
      if (httpClient != null && rootCertificates != null) {
        throw new IllegalArgumentException("a shared HTTP client brings its own TLS trust: give "
            + "it the root certificates instead of the node");
      }
      if (httpClient != null && httpClient.followRedirects() != HttpClient.Redirect.NEVER) {
        throw new IllegalArgumentException("a shared HTTP client must not follow redirects "
            + "(HttpClient.Redirect.NEVER): a SuperLink never sends a node elsewhere");
      }
      if (rootCertificates != null) {
        RootCertificates.read(rootCertificates);
      }
      if (!insecure && rootCertificates == null) {
        LOG.debug("TLS with the system's root certificates");
      }
      return new SuperNode(this);
    }
  }
}
