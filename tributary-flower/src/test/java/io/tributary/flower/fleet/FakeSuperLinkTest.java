package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.tributary.flower.fleet.internal.FleetRpc;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.fleet.internal.proto.ActivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.ConfirmMessageReceivedResponse;
import io.tributary.flower.fleet.internal.proto.DeactivateNodeResponse;
import io.tributary.flower.fleet.internal.proto.GetFabResponse;
import io.tributary.flower.fleet.internal.proto.GetRunResponse;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectResponse;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectResponse;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetResponse;
import io.tributary.flower.fleet.internal.proto.Run;
import io.tributary.flower.fleet.internal.proto.SendNodeHeartbeatResponse;
import io.tributary.flower.fleet.internal.proto.UnregisterNodeFleetResponse;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Java SuperNode against a fake SuperLink (the Fleet API served from Java) that sends bad
 * messages, which the node answers each with a Flower Error while going on serving and never
 * showing the app unverified data, and that goes away and returns, which the node survives by
 * reconnecting with backoff.
 */
@Timeout(60)
class FakeSuperLinkTest {
  static final long NODE = 42;
  final ArrayDeque<Message> queue = new ArrayDeque<>();
  final Map<String, byte[]> store = new ConcurrentHashMap<>();
  final Map<String, io.tributary.flower.fleet.internal.proto.ObjectTree> trees =
      new ConcurrentHashMap<>();
  final List<PushMessagesRequest> pushed = new CopyOnWriteArrayList<>();
  final java.util.concurrent.atomic.AtomicInteger registrations =
      new java.util.concurrent.atomic.AtomicInteger();
  final java.util.concurrent.atomic.AtomicInteger activations =
      new java.util.concurrent.atomic.AtomicInteger();
  /** Pulls still to refuse as a SuperLink that lost its node records does ("Invalid node ID"). */
  final java.util.concurrent.atomic.AtomicInteger refusePulls =
      new java.util.concurrent.atomic.AtomicInteger();
  /** Fields of a newer Flower's {@code Run} (series_id, primary_task_id) that GetRun sends. */
  volatile com.google.protobuf.UnknownFieldSet runExtra =
      com.google.protobuf.UnknownFieldSet.getDefaultInstance();

  private static <Q, R> void add(ServerServiceDefinition.Builder b, MethodDescriptor<Q, R> m,
      Function<Q, R> f) {
    b.addMethod(m, ServerCalls.asyncUnaryCall((req, out) -> {
      R r;
      try {
        r = f.apply(req);
      } catch (io.grpc.StatusRuntimeException e) {
        out.onError(e);
        return;
      }
      out.onNext(r);
      out.onCompleted();
    }));
  }

  Server start() throws Exception {
    return start(0);
  }

  Server start(int port) throws Exception {
    ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(FleetRpc.SERVICE);
    add(b, FleetRpc.REGISTER_NODE, r -> {
      registrations.incrementAndGet();
      return RegisterNodeFleetResponse.newBuilder().setNodeId(NODE).build();
    });
    add(b, FleetRpc.ACTIVATE_NODE, r -> {
      activations.incrementAndGet();
      return ActivateNodeResponse.newBuilder().setNodeId(NODE).build();
    });
    add(b, FleetRpc.DEACTIVATE_NODE, r -> DeactivateNodeResponse.getDefaultInstance());
    add(b, FleetRpc.UNREGISTER_NODE, r -> UnregisterNodeFleetResponse.getDefaultInstance());
    add(b, FleetRpc.HEARTBEAT, r -> SendNodeHeartbeatResponse.newBuilder().setSuccess(true)
        .build());
    add(b, FleetRpc.GET_RUN, r -> GetRunResponse.newBuilder().setRun(Run.newBuilder()
        .setRunId(r.getRunId()).setFabId("test/hostile").setUnknownFields(runExtra)).build());
    add(b, FleetRpc.GET_FAB, r -> GetFabResponse.getDefaultInstance());
    add(b, FleetRpc.PULL_MESSAGES, r -> {
      if (refusePulls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw io.grpc.Status.UNAUTHENTICATED.withDescription("Invalid node ID")
            .asRuntimeException();
      }
      Message m;
      synchronized (queue) {
        m = queue.poll();
      }
      if (m == null) {
        return PullMessagesResponse.getDefaultInstance();
      }
      return PullMessagesResponse.newBuilder().addMessagesList(Protos.messageHead(m))
          .addMessageObjectTrees(trees.get(m.metadata().messageId())).build();
    });
    add(b, FleetRpc.PULL_OBJECT, r -> {
      byte[] c = store.get(r.getObjectId());
      return c == null ? PullObjectResponse.getDefaultInstance()
          : PullObjectResponse.newBuilder().setObjectFound(true).setObjectAvailable(true)
              .setObjectContent(com.google.protobuf.ByteString.copyFrom(c)).build();
    });
    add(b, FleetRpc.CONFIRM_MESSAGE_RECEIVED,
        r -> ConfirmMessageReceivedResponse.getDefaultInstance());
    add(b, FleetRpc.PUSH_MESSAGES, r -> {
      pushed.add(r);
      return PushMessagesResponse.getDefaultInstance();
    });
    add(b, FleetRpc.PUSH_OBJECT, r -> PushObjectResponse.newBuilder().setStored(true).build());
    return Grpc.newServerBuilderForPort(port, InsecureServerCredentials.create())
        .addService(b.build()).build().start();
  }

  /** Offers {@code content} as a message of {@code type} for run {@code run}. */
  String offer(long run, String type, RecordDict content) {
    return offer(run, type, content, false);
  }

  /** Offers {@code content} as a message of {@code type}; {@code tamper} may spoil its objects. */
  String offer(String type, RecordDict content, boolean tamperAChunk) {
    return offer(1, type, content, tamperAChunk);
  }

  private String offer(long run, String type, RecordDict content, boolean tamperAChunk) {
    Metadata md = new Metadata(run, "", 0, NODE, "", "", 3600, type,
        System.currentTimeMillis() / 1000.0);
    Message m = Message.ofContent(md, content);
    ObjectCodec.Deflated d = ObjectCodec.deflate(m);
    d.objects().forEach((id, c) -> {
      byte[] copy = c.clone();
      if (tamperAChunk && new String(c, 0, 10, java.nio.charset.StandardCharsets.UTF_8)
          .startsWith("ArrayChunk")) {
        copy[copy.length - 1] ^= 1;
      }
      store.put(id, copy);
    });
    trees.put(d.rootId(), d.tree());
    synchronized (queue) {
      queue.add(m.withMessageId(d.rootId()));
    }
    return d.rootId();
  }

  static RecordDict model(Array w) {
    return RecordDict.of("arrays", new ArrayRecord(Map.of("w", w)), "config",
        new ConfigRecord(Map.of("server-round", 1L)));
  }

  @Test
  void serve_badMessages_errorReplyForEachAndTheGoodOneTrains() throws Exception {
    Server server = start();
    PlusKApp app = new PlusKApp();
    Array good = Array.fromTensor(Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6));
    // its own array, so that no other message shares (and repairs) the spoiled chunk
    String tampered = offer("train", model(Array.fromTensor(Tensor.ofFloats(Shape.of(2),
        9, 9))), true);
    String unknownType = offer("train.nope", model(good), false);
    String badShape = offer("train", model(new Array("float32", new int[] {3, 2}, Array.NUMPY,
        good.data())), false);
    String fine = offer("train", model(good), false);
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + server.getPort())
        .transport(FleetTransport.grpcRere()).insecure(true)
        .nodeConfig(Map.of("k", 1L)).clientApp(app.app()).pollInterval(Duration.ofMillis(50))
        .build().start()) {
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (pushed.size() < 4 && System.nanoTime() < end) {
        Thread.sleep(50);
      }
    } finally {
      server.shutdownNow();
    }
    assertThat(pushed).hasSize(4);
    Map<String, io.tributary.flower.fleet.internal.proto.Message> replies =
        new ConcurrentHashMap<>();
    for (PushMessagesRequest r : pushed) {
      var head = r.getMessagesList(0);
      replies.put(head.getMetadata().getReplyToMessageId(), head);
      assertThat(r.getMessageObjectTrees(0).getObjectId())
          .isEqualTo(head.getMetadata().getMessageId());
      assertThat(head.getMetadata().getDstNodeId()).isZero();
      assertThat(head.getMetadata().getSrcNodeId()).isEqualTo(NODE);
    }
    assertThat(replies.get(tampered).getError().getCode())
        .isEqualTo(MessageError.MESSAGE_UNAVAILABLE);
    assertThat(replies.get(tampered).getError().getReason()).contains("does not hash");
    assertThat(replies.get(unknownType).getError().getCode())
        .isEqualTo(MessageError.LOAD_CLIENT_APP_EXCEPTION);
    assertThat(replies.get(badShape).getError().getCode())
        .isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
    assertThat(replies.get(badShape).getError().getReason()).contains("shape");
    assertThat(replies.get(fine).hasError()).isFalse();
    assertThat(replies.get(fine).hasContent()).isTrue();
    // the app trained once: on the one message that was intact and consistent
    assertThat(app.reports).hasSize(1);
    assertThat(app.reports.getFirst().arrays().get("w").getFloat(5)).isEqualTo(7f);
  }

  @Test
  void serve_messageOverTheSizeBound_errorReplyWithoutRunningTheApp() throws Exception {
    Server server = start();
    PlusKApp app = new PlusKApp();
    String big = offer("train", model(Array.fromTensor(Tensor.zeros(
        io.tributary.tensor.DType.FLOAT32, Shape.of(1000, 1000)))), false);
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + server.getPort())
        .transport(FleetTransport.grpcRere()).insecure(true)
        .nodeConfig(Map.of("k", 1L)).clientApp(app.app()).pollInterval(Duration.ofMillis(50))
        .maxMessageBytes(1 << 20).build().start()) {
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (pushed.isEmpty() && System.nanoTime() < end) {
        Thread.sleep(50);
      }
    } finally {
      server.shutdownNow();
    }
    assertThat(pushed).hasSize(1);
    var head = pushed.getFirst().getMessagesList(0);
    assertThat(head.getMetadata().getReplyToMessageId()).isEqualTo(big);
    assertThat(head.getError().getCode()).isEqualTo(MessageError.MESSAGE_UNAVAILABLE);
    assertThat(head.getError().getReason()).contains("exceeds " + (1 << 20) + " bytes");
    assertThat(app.reports).isEmpty();
  }

  @Test
  void serve_superLinkGoesAwayAndReturns_reconnectsWithBackoffAndServesAgain() throws Exception {
    Server first = start();
    int port = first.getPort();
    PlusKApp app = new PlusKApp();
    Array w = Array.fromTensor(Tensor.ofFloats(Shape.of(1), 1));
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + port)
        .transport(FleetTransport.grpcRere()).insecure(true)
        .nodeConfig(Map.of("k", 1L)).clientApp(app.app()).pollInterval(Duration.ofMillis(50))
        .backoff(io.tributary.flower.Backoff.DEFAULT.withDelays(Duration.ofMillis(100),
            Duration.ofMillis(400)).withMaxAttempts(Integer.MAX_VALUE))
        .build().start()) {
      assertThat(node.awaitActive(Duration.ofSeconds(10))).isTrue();
      first.shutdownNow().awaitTermination();
      Thread.sleep(1000); // several failed attempts while the SuperLink is away
      Server second = start(port);
      try {
        String id = offer("train", model(w), false);
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (pushed.isEmpty() && System.nanoTime() < end) {
          Thread.sleep(50);
        }
        assertThat(activations.get()).isGreaterThanOrEqualTo(2);
        assertThat(registrations.get()).isGreaterThanOrEqualTo(2);
        assertThat(pushed).hasSize(1);
        assertThat(pushed.getFirst().getMessagesList(0).getMetadata().getReplyToMessageId())
            .isEqualTo(id);
      } finally {
        second.shutdownNow();
      }
    }
  }

  @Test
  void serve_superLinkForgetsTheServedNode_registersAndActivatesAgainAndServes()
      throws Exception {
    Server server = start();
    PlusKApp app = new PlusKApp();
    Array w = Array.fromTensor(Tensor.ofFloats(Shape.of(1), 1));
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + server.getPort())
        .transport(FleetTransport.grpcRere()).insecure(true)
        .nodeConfig(Map.of("k", 1L)).clientApp(app.app()).pollInterval(Duration.ofMillis(50))
        .backoff(io.tributary.flower.Backoff.DEFAULT.withDelays(Duration.ofMillis(100),
            Duration.ofMillis(400)).withMaxAttempts(Integer.MAX_VALUE))
        .build().start()) {
      assertThat(node.awaitActive(Duration.ofSeconds(10))).isTrue();
      Thread.sleep(200); // a few answered pulls: the node has been served
      refusePulls.set(1);
      String id = offer("train", model(w), false);
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (pushed.isEmpty() && System.nanoTime() < end) {
        Thread.sleep(50);
      }
      assertThat(node.failure()).isNull();
      assertThat(refusePulls.get()).isZero();
      assertThat(registrations.get()).isEqualTo(2);
      assertThat(activations.get()).isEqualTo(2);
      assertThat(pushed).hasSize(1);
      assertThat(pushed.getFirst().getMessagesList(0).getMetadata().getReplyToMessageId())
          .isEqualTo(id);
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void serve_firstPullAfterActivationRefused_stopsWithTheReason() throws Exception {
    refusePulls.set(Integer.MAX_VALUE);
    Server server = start();
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + server.getPort())
        .transport(FleetTransport.grpcRere()).insecure(true)
        .clientApp(new PlusKApp().app()).pollInterval(Duration.ofMillis(50))
        .build().start()) {
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (node.failure() == null && System.nanoTime() < end) {
        Thread.sleep(20);
      }
      assertThat(node.failure()).hasMessageContaining("refused this node")
          .hasMessageContaining("Invalid node ID");
      assertThat(activations.get()).isEqualTo(1);
    } finally {
      server.shutdownNow();
    }
  }
}
