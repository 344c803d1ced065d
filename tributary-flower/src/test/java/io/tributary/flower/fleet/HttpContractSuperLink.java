package io.tributary.flower.fleet;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.ActivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedRequest;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedResponse;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.GetFabRequest;
import io.tributary.flower.fleet.internal.proto.GetFabResponse;
import io.tributary.flower.fleet.internal.proto.GetRunRequest;
import io.tributary.flower.fleet.internal.proto.GetRunResponse;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PullObjectResponse;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.PushObjectResponse;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetResponse;
import io.tributary.flower.fleet.internal.proto.Run;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatRequest;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatResponse;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetResponse;
import io.tributary.flower.records.Message;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SuperLink's HTTP Fleet API in the JVM that checks every request as Flower 1.40+ does what
 * Flower 1.27's REST transport cannot show: {@code content-type} and {@code accept} exactly
 * {@code application/protobuf} (400 otherwise), the node authentication headers (the signature
 * of the timestamp by the public key, the timestamp within (-5, 305) s of now, the node id of
 * every call but register/activate bound to the key; 401 otherwise), and the {@code session_id}
 * of a push echoed by its PushObject calls. Errors are JSON ({@code detail}, {@code code}).
 * Faults can be switched on: 503s, 401 for every call, garbage or oversized 200 answers.
 */
final class HttpContractSuperLink implements AutoCloseable {
  static final String PROTOBUF = "application/protobuf";
  static final long RUN = 7;

  private final HttpServer server;
  private final String prefix;
  private final AtomicLong nextNode = new AtomicLong(1000);
  /** base64 PEM public key -> node id. */
  final Map<String, Long> nodes = new ConcurrentHashMap<>();
  final Set<Long> active = ConcurrentHashMap.newKeySet();
  final Map<String, byte[]> store = new ConcurrentHashMap<>();
  private final ArrayDeque<Map.Entry<Message, ObjectTree>> queue = new ArrayDeque<>();
  private final Map<String, Set<String>> sessions = new ConcurrentHashMap<>();
  /** "method" per accepted call, in order. */
  final List<String> calls = new CopyOnWriteArrayList<>();
  /** "status method: detail" per refused call. */
  final List<String> refusals = new CopyOnWriteArrayList<>();
  final List<PushMessagesRequest> pushed = new CopyOnWriteArrayList<>();
  final List<PushObjectRequest> pushedObjects = new CopyOnWriteArrayList<>();
  final List<Map<String, String>> versionHeaders = new CopyOnWriteArrayList<>();
  final AtomicInteger unavailableLeft = new AtomicInteger();
  /** Fields of a newer Flower's {@code Run} (primary_task_id, series_id) that get-run sends. */
  volatile com.google.protobuf.UnknownFieldSet runExtra =
      com.google.protobuf.UnknownFieldSet.getDefaultInstance();
  volatile boolean refuseEveryKey;
  volatile boolean answerGarbage;
  volatile int oversizedAnswerBytes;

  HttpContractSuperLink(String prefix) throws IOException {
    this.prefix = prefix;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
    server.start();
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** Registers a public key beforehand, as {@code flwr supernode register} does. */
  long register(byte[] publicKeyPem) {
    long id = nextNode.incrementAndGet();
    nodes.put(Base64.getEncoder().encodeToString(publicKeyPem), id);
    return id;
  }

  /** Queues {@code m} (its content as objects) for the first node that pulls. */
  String offer(Message m) {
    return offer(m, com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  /** {@link #offer(Message)} with metadata fields of a newer Flower ({@code extra}). */
  String offer(Message m, com.google.protobuf.UnknownFieldSet extra) {
    ObjectCodec.Deflated d = ObjectCodec.deflate(m, extra);
    store.putAll(d.objects());
    synchronized (queue) {
      queue.add(Map.entry(m.withMessageId(d.rootId()), d.tree()));
      extras.put(d.rootId(), extra);
    }
    return d.rootId();
  }

  private final Map<String, com.google.protobuf.UnknownFieldSet> extras =
      new ConcurrentHashMap<>();

  @Override
  public void close() {
    server.stop(0);
  }

  private record Refusal(int status, String detail, String code) {}

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      if (!path.startsWith(prefix + "/")) {
        refusals.add("404 " + path + ": Not Found");
        error(x, new Refusal(404, "Not Found", "NOT_FOUND"));
        return;
      }
      String method = path.substring(prefix.length() + 1);
      byte[] body = x.getRequestBody().readNBytes(64 << 20);
      byte[] answer;
      try {
        if (unavailableLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw new RefusedException(new Refusal(503, "SuperLink is overloaded", "UNAVAILABLE"));
        }
        if (!x.getRequestMethod().equals("POST")) {
          throw new RefusedException(new Refusal(405, "Method Not Allowed", "METHOD"));
        }
        checkContentTypes(x);
        String key = authenticate(x);
        versionHeaders.add(Map.of(
            "flwr-package-name",
            String.valueOf(x.getRequestHeaders().getFirst("flwr-package-name")),
            "flwr-package-version",
            String.valueOf(x.getRequestHeaders().getFirst("flwr-package-version")),
            "flwr-component-name",
            String.valueOf(x.getRequestHeaders().getFirst("flwr-component-name"))));
        answer = dispatch(method, key, body);
        calls.add(method);
      } catch (RefusedException e) {
        refusals.add(e.refusal.status + " " + method + ": " + e.refusal.detail);
        error(x, e.refusal);
        return;
      } catch (InvalidProtocolBufferException e) {
        refusals.add("400 " + method + ": bad body");
        error(x, new Refusal(400, "Malformed request body", "BAD_REQUEST"));
        return;
      }
      if (answerGarbage) {
        byte[] html = "<html><body>502 Bad Gateway</body></html>".getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("content-type", "text/html");
        x.sendResponseHeaders(200, html.length);
        x.getResponseBody().write(html);
        return;
      }
      if (oversizedAnswerBytes > 0) {
        answer = new byte[oversizedAnswerBytes];
      }
      x.getResponseHeaders().set("content-type", PROTOBUF);
      x.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
      x.getResponseBody().write(answer);
    }
  }

  private static void error(HttpExchange x, Refusal r) throws IOException {
    byte[] json = ("{\"detail\": \"" + r.detail + "\", \"code\": \"" + r.code + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("content-type", "application/json");
    x.sendResponseHeaders(r.status, json.length);
    x.getResponseBody().write(json);
  }

  private static final class RefusedException extends Exception {
    final Refusal refusal;

    RefusedException(Refusal r) {
      super(r.detail, null, false, false);
      this.refusal = r;
    }
  }

  private static void checkContentTypes(HttpExchange x) throws RefusedException {
    if (!PROTOBUF.equals(x.getRequestHeaders().getFirst("content-type"))) {
      throw new RefusedException(new Refusal(400, "Unsupported `Content-Type`", "BAD_REQUEST"));
    }
    if (!PROTOBUF.equals(x.getRequestHeaders().getFirst("accept"))) {
      throw new RefusedException(new Refusal(400, "Unsupported `Accept`", "BAD_REQUEST"));
    }
  }

  /** The base64 PEM public key of a request whose signature and timestamp hold. */
  private String authenticate(HttpExchange x) throws RefusedException {
    if (refuseEveryKey) {
      throw new RefusedException(new Refusal(401, "Public key not recognized", "UNAUTHENTICATED"));
    }
    String key = x.getRequestHeaders().getFirst("flwr-public-key");
    String ts = x.getRequestHeaders().getFirst("flwr-timestamp");
    String sig = x.getRequestHeaders().getFirst("flwr-signature");
    if (key == null || ts == null || sig == null) {
      throw new RefusedException(new Refusal(401, "Missing authentication headers",
          "UNAUTHENTICATED"));
    }
    try {
      String pem = new String(Base64.getDecoder().decode(key), StandardCharsets.US_ASCII);
      byte[] der = Base64.getMimeDecoder().decode(pem.replace("-----BEGIN PUBLIC KEY-----", "")
          .replace("-----END PUBLIC KEY-----", ""));
      PublicKey pk = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
      Signature v = Signature.getInstance("SHA256withECDSA");
      v.initVerify(pk);
      v.update(ts.getBytes(StandardCharsets.US_ASCII));
      if (!v.verify(Base64.getDecoder().decode(sig))) {
        throw new RefusedException(new Refusal(401, "Invalid signature", "UNAUTHENTICATED"));
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new RefusedException(new Refusal(401, "Invalid public key or signature",
          "UNAUTHENTICATED"));
    }
    if (!ts.endsWith("+00:00")) {
      throw new RefusedException(new Refusal(401, "Timestamp is not UTC", "UNAUTHENTICATED"));
    }
    try {
      double diff = Duration.between(OffsetDateTime.parse(ts), OffsetDateTime.now()).toMillis()
          / 1000.0;
      if (!(diff > -5 && diff < 305)) {
        throw new RefusedException(new Refusal(401, "Invalid timestamp", "UNAUTHENTICATED"));
      }
    } catch (DateTimeParseException e) {
      throw new RefusedException(new Refusal(401, "Invalid timestamp", "UNAUTHENTICATED"));
    }
    return key;
  }

  private void bound(String key, long nodeId) throws RefusedException {
    Long id = nodes.get(key);
    if (id == null || id != nodeId) {
      throw new RefusedException(new Refusal(401, "Invalid node ID", "UNAUTHENTICATED"));
    }
  }

  private byte[] dispatch(String method, String key, byte[] body)
      throws RefusedException, InvalidProtocolBufferException {
    switch (method) {
      case "register-node" -> {
        RegisterNodeFleetRequest r = RegisterNodeFleetRequest.parseFrom(body);
        String pk = Base64.getEncoder().encodeToString(r.getPublicKey().toByteArray());
        if (!pk.equals(key)) {
          throw new RefusedException(new Refusal(401, "Key mismatch", "UNAUTHENTICATED"));
        }
        if (nodes.containsKey(pk)) {
          throw new RefusedException(new Refusal(409, "Public key already in use", "CONFLICT"));
        }
        long id = nextNode.incrementAndGet();
        nodes.put(pk, id);
        return RegisterNodeFleetResponse.newBuilder().setNodeId(id).build().toByteArray();
      }
      case "activate-node" -> {
        ActivateNodeRequest r = ActivateNodeRequest.parseFrom(body);
        Long id = nodes.get(Base64.getEncoder().encodeToString(r.getPublicKey().toByteArray()));
        if (id == null || !Base64.getEncoder().encodeToString(r.getPublicKey().toByteArray())
            .equals(key)) {
          throw new RefusedException(new Refusal(401, "No SuperNode with this public key",
              "UNAUTHENTICATED"));
        }
        if (!(r.getHeartbeatInterval() >= 10 && r.getHeartbeatInterval() <= 1800)) {
          throw new RefusedException(new Refusal(400, "Invalid heartbeat interval",
              "BAD_REQUEST"));
        }
        active.add(id);
        return ActivateNodeResponse.newBuilder().setNodeId(id).build().toByteArray();
      }
      case "deactivate-node" -> {
        DeactivateNodeRequest r = DeactivateNodeRequest.parseFrom(body);
        bound(key, r.getNodeId());
        active.remove(r.getNodeId());
        return DeactivateNodeResponse.getDefaultInstance().toByteArray();
      }
      case "unregister-node" -> {
        UnregisterNodeFleetRequest r = UnregisterNodeFleetRequest.parseFrom(body);
        bound(key, r.getNodeId());
        nodes.remove(key);
        return UnregisterNodeFleetResponse.getDefaultInstance().toByteArray();
      }
      case "send-node-heartbeat" -> {
        SendNodeHeartbeatRequest r = SendNodeHeartbeatRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        return SendNodeHeartbeatResponse.newBuilder()
            .setSuccess(active.contains(r.getNode().getNodeId())).build().toByteArray();
      }
      case "pull-messages" -> {
        PullMessagesRequest r = PullMessagesRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        Map.Entry<Message, ObjectTree> m;
        synchronized (queue) {
          m = queue.poll();
        }
        if (m == null) {
          return PullMessagesResponse.getDefaultInstance().toByteArray();
        }
        return PullMessagesResponse.newBuilder().addMessagesList(Protos.messageHead(m.getKey(),
            extras.get(m.getKey().metadata().messageId())))
            .addMessageObjectTrees(m.getValue()).build().toByteArray();
      }
      case "get-run" -> {
        GetRunRequest r = GetRunRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        return GetRunResponse.newBuilder().setRun(Run.newBuilder().setRunId(r.getRunId())
            .setFabId("test/contract").setUnknownFields(runExtra)).build().toByteArray();
      }
      case "get-fab" -> {
        GetFabRequest r = GetFabRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        return GetFabResponse.getDefaultInstance().toByteArray();
      }
      case "pull-object" -> {
        PullObjectRequest r = PullObjectRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        byte[] c = store.get(r.getObjectId());
        return (c == null ? PullObjectResponse.getDefaultInstance()
            : PullObjectResponse.newBuilder().setObjectFound(true).setObjectAvailable(true)
                .setObjectContent(ByteString.copyFrom(c)).build()).toByteArray();
      }
      case "confirm-message-received" -> {
        ConfirmMessageReceivedRequest r = ConfirmMessageReceivedRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        return ConfirmMessageReceivedResponse.getDefaultInstance().toByteArray();
      }
      case "push-messages" -> {
        PushMessagesRequest r = PushMessagesRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        pushed.add(r);
        Set<String> wanted = new HashSet<>();
        collect(r.getMessageObjectTrees(0), wanted);
        wanted.removeAll(store.keySet());
        String session = UUID.randomUUID().toString();
        sessions.put(session, ConcurrentHashMap.newKeySet());
        sessions.get(session).addAll(wanted);
        return PushMessagesResponse.newBuilder().addAllObjectsToPush(wanted)
            .setSessionId(session).build().toByteArray();
      }
      case "push-object" -> {
        PushObjectRequest r = PushObjectRequest.parseFrom(body);
        bound(key, r.getNode().getNodeId());
        Set<String> expected = sessions.get(r.getSessionId());
        if (expected == null || !expected.remove(r.getObjectId())) {
          throw new RefusedException(new Refusal(400, "Object not expected in this session",
              "BAD_REQUEST"));
        }
        byte[] c = r.getObjectContent().toByteArray();
        if (!ObjectCodec.objectId(c).equals(r.getObjectId())) {
          throw new RefusedException(new Refusal(400, "Object content does not match its id",
              "BAD_REQUEST"));
        }
        pushedObjects.add(r);
        store.put(r.getObjectId(), c);
        return PushObjectResponse.newBuilder().setStored(true).build().toByteArray();
      }
      default -> throw new RefusedException(new Refusal(404, "Not Found", "NOT_FOUND"));
    }
  }

  private static void collect(ObjectTree t, Set<String> out) {
    out.add(t.getObjectId());
    for (ObjectTree c : t.getChildrenList()) {
      collect(c, out);
    }
  }

  /** How many accepted calls of {@code method} there were. */
  int count(String method) {
    return (int) calls.stream().filter(method::equals).count();
  }
}
