package io.tributary.flower.fleet.server.internal;

import io.tributary.flower.fleet.server.FleetLimits;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.ActivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedRequest;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedResponse;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.Fab;
import io.tributary.flower.fleet.internal.proto.GetFabRequest;
import io.tributary.flower.fleet.internal.proto.GetFabResponse;
import io.tributary.flower.fleet.internal.proto.GetRunRequest;
import io.tributary.flower.fleet.internal.proto.GetRunResponse;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PullObjectResponse;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.PushObjectResponse;
import io.tributary.flower.fleet.internal.proto.Reconnect;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetResponse;
import io.tributary.flower.fleet.internal.proto.Run;
import io.tributary.flower.fleet.internal.proto.RunStatus;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatResponse;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetResponse;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.Traffic;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Fleet API's calls on the server side, whatever the transport: the node registry (register,
 * activate, heartbeat, deactivate, unregister; a node goes offline when its heartbeats and its
 * message calls stop for twice its interval, as Flower's {@code HEARTBEAT_PATIENCE} says), the
 * messages and their objects, the run and the FAB.
 *
 * <p>Each online node is a {@link FleetNode} registered with the server's {@link ClientManager},
 * so the rounds sample and instruct it as any other client.
 */
public final class FleetService {
  private static final Logger LOG = LoggerFactory.getLogger(FleetService.class);
  /** Flower's heartbeat interval bounds, seconds. */
  static final double MIN_HEARTBEAT = 10;
  static final double MAX_HEARTBEAT = 1800;
  static final int HEARTBEAT_PATIENCE = 2;

  /** What the transport knows of a caller: its checked key (gRPC), or nothing (HTTP). */
  public record Caller(Optional<byte[]> keyDer) {
    public static final Caller ANONYMOUS = new Caller(Optional.empty());
  }

  /** What the run tells a node: the App and its run config. */
  public record RunInfo(long runId, String fabId, String fabVersion, String fabHash, byte[] fab,
      Map<String, io.tributary.flower.internal.proto.Scalar> overrideConfig) {}

  private static final class NodeRecord {
    final long nodeId;
    final String key;
    FleetNode current;
    long onlineUntilNanos;
    long patienceNanos;

    NodeRecord(long nodeId, String key) {
      this.nodeId = nodeId;
      this.key = key;
    }
  }

  private final ClientManager manager;
  private final RunInfo run;
  private final MessageApi api;
  private final FleetLimits limits;
  private final ScheduledExecutorService timer;
  private final Traffic traffic;
  private final boolean authEnabled;
  private final SecureRandom random = new SecureRandom();
  private final Map<Long, NodeRecord> nodes = new ConcurrentHashMap<>();
  private final Map<String, Long> byKey = new ConcurrentHashMap<>();
  private final Object lock = new Object();
  private final ObjectInterner interner = new ObjectInterner();
  private final ObjectCodec.Memo memo = new ObjectCodec.Memo();
  private final InboundBudget inbound;

  /**
   * @param inbound the server's read-ahead budget, which large replies wait for
   * @param authorizedKeys with node auth, the DER SubjectPublicKeyInfo of every node allowed,
   *     registered now (as {@code flwr supernode register} does); empty without node auth
   */
  public FleetService(ClientManager manager, RunInfo run, MessageApi api, FleetLimits limits,
      ScheduledExecutorService timer, Traffic traffic, InboundBudget inbound,
      Optional<List<byte[]>> authorizedKeys) {
    this.manager = manager;
    this.inbound = java.util.Objects.requireNonNull(inbound, "inbound");
    this.run = run;
    this.api = api;
    this.limits = limits;
    this.timer = timer;
    this.traffic = traffic;
    this.authEnabled = authorizedKeys.isPresent();
    authorizedKeys.ifPresent(keys -> keys.forEach(k -> {
      String hex = HexFormat.of().formatHex(k);
      if (!byKey.containsKey(hex)) {
        create(hex);
      }
    }));
  }

  /** Whether nodes must be registered beforehand and sign every call. */
  public boolean authEnabled() {
    return authEnabled;
  }

  private NodeRecord create(String key) {
    long id;
    do {
      id = random.nextLong() & Long.MAX_VALUE;
    } while (id <= MessageApi.SUPERLINK_NODE_ID || nodes.containsKey(id));
    NodeRecord r = new NodeRecord(id, key);
    nodes.put(id, r);
    byKey.put(key, id);
    return r;
  }

  private static String keyOf(byte[] publicKey) {
    // Keys are compared as Flower compares them once parsed: by their DER form; bytes that do
    // not parse (a node without node auth may send anything) are compared as they are.
    try {
      return HexFormat.of().formatHex(NodeSignatures.publicKey(publicKey).getEncoded());
    } catch (FleetCallException e) {
      return "raw:" + HexFormat.of().formatHex(publicKey);
    }
  }

  // ------------------------------------------------------------------ nodes

  public RegisterNodeFleetResponse registerNode(RegisterNodeFleetRequest r, Caller caller)
      throws FleetCallException {
    if (authEnabled) {
      throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION,
          "SuperNode authentication is enabled. All SuperNodes must be registered on the "
          + "server beforehand.");
    }
    if (r.getPublicKey().isEmpty()) {
      throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT,
          "RegisterNode carries no public key");
    }
    String key = keyOf(r.getPublicKey().toByteArray());
    if (caller.keyDer().isPresent()
        && !key.equals(HexFormat.of().formatHex(caller.keyDer().get()))) {
      throw new FleetCallException(FleetCallException.Code.UNAUTHENTICATED,
          "the public key to register is not the caller's");
    }
    synchronized (lock) {
      if (byKey.containsKey(key)) {
        throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION,
            "Public key already in use");
      }
      if (nodes.size() >= limits.maxNodes()) {
        throw new FleetCallException(FleetCallException.Code.RESOURCE_EXHAUSTED,
            "the server holds its limit of " + limits.maxNodes() + " nodes");
      }
      NodeRecord n = create(key);
      LOG.info("node {} registered", Long.toUnsignedString(n.nodeId));
      return RegisterNodeFleetResponse.newBuilder().setNodeId(n.nodeId).build();
    }
  }

  public ActivateNodeResponse activateNode(ActivateNodeRequest r, Caller caller)
      throws FleetCallException {
    String key = keyOf(r.getPublicKey().toByteArray());
    requireSigned(caller);
    if (caller.keyDer().isPresent()
        && !key.equals(HexFormat.of().formatHex(caller.keyDer().get()))) {
      throw new FleetCallException(FleetCallException.Code.UNAUTHENTICATED,
          "the public key to activate is not the caller's");
    }
    checkInterval(r.getHeartbeatInterval());
    FleetNode old;
    FleetNode fresh;
    synchronized (lock) {
      Long id = byKey.get(key);
      if (id == null) {
        throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION,
            "No SuperNode found with the given public key.");
      }
      NodeRecord n = nodes.get(id);
      old = n.current;
      fresh = newOnlinePeriod(n);
      n.current = fresh;
      n.patienceNanos = patience(r.getHeartbeatInterval());
      n.onlineUntilNanos = System.nanoTime() + n.patienceNanos;
    }
    if (old != null) {
      old.end("the node activated again");
    }
    manager.register(manager.nextSequence(), fresh);
    LOG.info("node {} online", fresh.id());
    return ActivateNodeResponse.newBuilder().setNodeId(fresh.nodeId()).build();
  }

  private FleetNode newOnlinePeriod(NodeRecord n) {
    return new FleetNode(n.nodeId, run.runId(), api, limits, timer, traffic, interner, memo,
        inbound, s -> {
      manager.unregister(s);
      synchronized (lock) {
        if (n.current == s) {
          n.current = null;
        }
      }
    });
  }

  private static long patience(double interval) {
    return (long) (HEARTBEAT_PATIENCE * interval * 1e9);
  }

  private static void checkInterval(double interval) throws FleetCallException {
    if (!(interval >= MIN_HEARTBEAT && interval <= MAX_HEARTBEAT)) {
      throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT,
          "Heartbeat interval " + interval + " is out of bounds [" + MIN_HEARTBEAT + ", "
          + MAX_HEARTBEAT + "].");
    }
  }

  public SendNodeHeartbeatResponse heartbeat(SendNodeHeartbeatRequest r, Caller caller)
      throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    checkInterval(r.getHeartbeatInterval());
    FleetNode fresh = null;
    synchronized (lock) {
      NodeRecord n = nodes.get(nodeId);
      if (n == null) {
        return SendNodeHeartbeatResponse.newBuilder().setSuccess(false).build();
      }
      n.patienceNanos = patience(r.getHeartbeatInterval());
      n.onlineUntilNanos = System.nanoTime() + n.patienceNanos;
      if (n.current == null) {
        // Back online after its heartbeats had stopped, as Flower's SuperLink takes it back.
        fresh = newOnlinePeriod(n);
        n.current = fresh;
      }
    }
    if (fresh != null) {
      manager.register(manager.nextSequence(), fresh);
      LOG.info("node {} online again", fresh.id());
    }
    return SendNodeHeartbeatResponse.newBuilder().setSuccess(true).build();
  }

  public DeactivateNodeResponse deactivateNode(DeactivateNodeRequest r, Caller caller)
      throws FleetCallException {
    checkCaller(r.getNodeId(), caller);
    return deactivate(r.getNodeId());
  }

  private DeactivateNodeResponse deactivate(long nodeId) throws FleetCallException {
    FleetNode s;
    synchronized (lock) {
      NodeRecord n = known(nodeId);
      s = n.current;
      n.current = null;
    }
    if (s != null) {
      s.end("the node deactivated");
      LOG.info("node {} deactivated", s.id());
    }
    return DeactivateNodeResponse.getDefaultInstance();
  }

  public UnregisterNodeFleetResponse unregisterNode(UnregisterNodeFleetRequest r, Caller caller)
      throws FleetCallException {
    checkCaller(r.getNodeId(), caller);
    if (authEnabled) {
      // Registered on the server, not by the node: it stays registered, as with Flower.
      deactivate(r.getNodeId());
      return UnregisterNodeFleetResponse.getDefaultInstance();
    }
    FleetNode s;
    synchronized (lock) {
      NodeRecord n = known(r.getNodeId());
      nodes.remove(n.nodeId);
      byKey.remove(n.key);
      s = n.current;
      n.current = null;
    }
    if (s != null) {
      s.end("the node unregistered");
    }
    LOG.info("node {} unregistered", Long.toUnsignedString(r.getNodeId()));
    return UnregisterNodeFleetResponse.getDefaultInstance();
  }

  /** Takes offline every node whose heartbeats have stopped; called every second. */
  public void sweep() {
    sweepAt(System.nanoTime());
  }

  /** {@link #sweep} as of {@code now} ({@link System#nanoTime} units). */
  void sweepAt(long now) {
    for (NodeRecord n : nodes.values()) {
      FleetNode s;
      synchronized (lock) {
        s = n.current;
        // A node held in PushMessages by the read-ahead cannot be blamed for missed heartbeats
        // (a busy server answers them late); its reply's timeout runs once admitted.
        if (s == null || now - n.onlineUntilNanos < 0 || s.replyWaiting()) {
          continue;
        }
        n.current = null;
      }
      LOG.warn("node {} is offline: no heartbeat in time", s.id());
      s.end("the node went offline: its heartbeats stopped");
    }
  }

  private NodeRecord known(long nodeId) throws FleetCallException {
    NodeRecord n = nodes.get(nodeId);
    if (n == null) {
      throw new FleetCallException(FleetCallException.Code.NOT_FOUND,
          "no SuperNode with node ID " + Long.toUnsignedString(nodeId));
    }
    return n;
  }

  /**
   * With a checked key, the node id a call names must be the key's node; without one (an
   * unsigned HTTP call), only a server without SuperNode authentication goes on.
   */
  private void checkCaller(long nodeId, Caller caller) throws FleetCallException {
    requireSigned(caller);
    if (caller.keyDer().isEmpty()) {
      return;
    }
    Long id = byKey.get(HexFormat.of().formatHex(caller.keyDer().get()));
    if (id == null || id != nodeId) {
      throw new FleetCallException(FleetCallException.Code.UNAUTHENTICATED, "Invalid node ID");
    }
  }

  /** With SuperNode authentication, an unsigned call changes nothing. */
  private void requireSigned(Caller caller) throws FleetCallException {
    if (authEnabled && caller.keyDer().isEmpty()) {
      throw new FleetCallException(FleetCallException.Code.UNAUTHENTICATED,
          "Missing authentication headers");
    }
  }

  /**
   * The node's online period, if it has one, which this call extends as a heartbeat would: a
   * node pulling or pushing its messages is alive, and on a busy server (1,000 nodes on two
   * cores) its heartbeats, each with a 5 s deadline, can all come too late while its other calls
   * (60 s deadlines) go through. A node whose calls and heartbeats all stop still goes offline
   * after its patience; one that is offline comes back only by a heartbeat or activation.
   */
  private FleetNode online(long nodeId) {
    NodeRecord n = nodes.get(nodeId);
    if (n == null) {
      return null;
    }
    synchronized (lock) {
      if (n.current != null) {
        long until = System.nanoTime() + n.patienceNanos;
        if (until - n.onlineUntilNanos > 0) {
          n.onlineUntilNanos = until;
        }
      }
      return n.current;
    }
  }

  // ------------------------------------------------------------------ messages

  public PullMessagesResponse pullMessages(PullMessagesRequest r, Caller caller)
      throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    known(nodeId);
    PullMessagesResponse.Builder b = PullMessagesResponse.newBuilder();
    FleetNode s = online(nodeId);
    if (s != null) {
      s.pull().ifPresent(o -> b.addMessagesList(FleetNode.head(o))
          .addMessageObjectTrees(FleetNode.tree(o)));
    }
    return b.build();
  }

  public PushMessagesResponse pushMessages(PushMessagesRequest r, Caller caller)
      throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    known(nodeId);
    if (r.getMessagesListCount() != 1 || r.getMessageObjectTreesCount() != 1) {
      throw new FleetCallException(FleetCallException.Code.INVALID_ARGUMENT,
          "PushMessages carries " + r.getMessagesListCount() + " messages and "
          + r.getMessageObjectTreesCount() + " object trees; one of each is expected");
    }
    FleetNode s = online(nodeId);
    if (s == null) {
      throw new FleetCallException(FleetCallException.Code.FAILED_PRECONDITION,
          "node " + Long.toUnsignedString(nodeId) + " is not online");
    }
    var head = r.getMessagesList(0);
    List<String> toPush = s.pushReply(head, r.getMessageObjectTrees(0));
    // The call may have waited for the read-ahead: its end shows the node alive, as its start.
    online(nodeId);
    return PushMessagesResponse.newBuilder()
        .setReconnect(Reconnect.newBuilder().setReconnect(5))
        .putResults(r.getMessageObjectTrees(0).getObjectId(), 0)
        .addAllObjectsToPush(toPush).build();
  }

  public PullObjectResponse pullObject(PullObjectRequest r, Caller caller)
      throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    checkRun(r.getRunId());
    FleetNode s = online(nodeId);
    Optional<byte[]> c = s == null ? Optional.empty() : s.object(r.getObjectId());
    if (c.isEmpty()) {
      return PullObjectResponse.newBuilder().setObjectFound(false).setObjectAvailable(false)
          .build();
    }
    return PullObjectResponse.newBuilder().setObjectFound(true).setObjectAvailable(true)
        // Object contents are never written to once made: the reply may share the bytes.
        .setObjectContent(UnsafeByteOperations.unsafeWrap(c.get())).build();
  }

  public PushObjectResponse pushObject(PushObjectRequest r, Caller caller)
      throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    checkRun(r.getRunId());
    FleetNode s = online(nodeId);
    boolean stored = s != null && s.pushObject(r.getObjectId(),
        r.getObjectContent().toByteArray());
    return PushObjectResponse.newBuilder().setStored(stored).build();
  }

  public ConfirmMessageReceivedResponse confirmMessageReceived(ConfirmMessageReceivedRequest r,
      Caller caller) throws FleetCallException {
    long nodeId = r.getNode().getNodeId();
    checkCaller(nodeId, caller);
    checkRun(r.getRunId());
    FleetNode s = online(nodeId);
    if (s != null) {
      s.confirmed(r.getMessageObjectId());
    }
    return ConfirmMessageReceivedResponse.getDefaultInstance();
  }

  // ------------------------------------------------------------------ run and FAB

  private void checkRun(long runId) throws FleetCallException {
    if (runId != run.runId()) {
      throw new FleetCallException(FleetCallException.Code.NOT_FOUND, "Run ID not found: "
          + Long.toUnsignedString(runId));
    }
  }

  public GetRunResponse getRun(GetRunRequest r, Caller caller) throws FleetCallException {
    checkCaller(r.getNode().getNodeId(), caller);
    known(r.getNode().getNodeId());
    checkRun(r.getRunId());
    return GetRunResponse.newBuilder().setRun(Run.newBuilder().setRunId(run.runId())
        .setFabId(run.fabId()).setFabVersion(run.fabVersion()).setFabHash(run.fabHash())
        .putAllOverrideConfig(run.overrideConfig())
        .setStatus(RunStatus.newBuilder().setStatus("running"))
        .setRunningAt(Instant.now().toString())).build();
  }

  public GetFabResponse getFab(GetFabRequest r, Caller caller) throws FleetCallException {
    checkCaller(r.getNode().getNodeId(), caller);
    known(r.getNode().getNodeId());
    checkRun(r.getRunId());
    if (!r.getHashStr().equals(run.fabHash())) {
      throw new FleetCallException(FleetCallException.Code.NOT_FOUND,
          "Found no FAB with hash: " + r.getHashStr());
    }
    return GetFabResponse.newBuilder().setFab(Fab.newBuilder().setHashStr(run.fabHash())
        .setContent(ByteString.copyFrom(run.fab()))).build();
  }

  /** Ends every online node's period (the server stops). */
  public void endAll() {
    for (NodeRecord n : nodes.values()) {
      FleetNode s;
      synchronized (lock) {
        s = n.current;
        n.current = null;
      }
      if (s != null) {
        s.end("the server stopped");
      }
    }
  }
}
