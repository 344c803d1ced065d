package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.Node;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.fleet.internal.proto.PullMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PullMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PullObjectRequest;
import io.tributary.flower.fleet.internal.proto.PushMessagesRequest;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.server.FleetLimits;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node that breaks the Fleet rules fails only its own answer, with the reason, and stays
 * online for the next instruction: forged objects, trees that do not match, amplified arrays,
 * trees over the bound, replies to other messages, replies in another node's name.
 */
@Timeout(60)
class HostileNodeTest {
  private static final long RUN = 7;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final ClientManager manager = new ClientManager();

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  private FleetService service(FleetLimits limits) {
    return new FleetService(manager, new FleetService.RunInfo(RUN, "p/app", "1.0", "00",
        new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()), limits, timer,
        new Traffic(), new InboundBudget(InboundBudget.DEFAULT_BYTES), Optional.empty());
  }

  static long join(FleetService s) throws Exception {
    byte[] pem = NodeAuth.pem(NodeAuth.generate());
    s.registerNode(RegisterNodeFleetRequest.newBuilder()
        .setPublicKey(ByteString.copyFrom(pem)).build(), FleetService.Caller.ANONYMOUS);
    return s.activateNode(ActivateNodeRequest.newBuilder().setPublicKey(ByteString.copyFrom(pem))
        .setHeartbeatInterval(30).build(), FleetService.Caller.ANONYMOUS).getNodeId();
  }

  private static ServerMessage fitIns() {
    Tensor w = Tensor.ofDoubles(Shape.of(3), 1, 2, 3);
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(Parameters.newBuilder().setTensorType(Array.NUMPY)
            .addTensors(ByteString.copyFrom(Array.fromTensor(w).data())))
        .putConfig("server_round", io.tributary.flower.internal.proto.Scalar.newBuilder()
            .setSint64(1).build())).build();
  }

  /** What the node received: the instruction, pulled and put together. */
  static Message pull(FleetService s, long node) throws Exception {
    Node n = Node.newBuilder().setNodeId(node).build();
    PullMessagesResponse r = s.pullMessages(PullMessagesRequest.newBuilder().setNode(n).build(),
        FleetService.Caller.ANONYMOUS);
    assertThat(r.getMessagesListCount()).isEqualTo(1);
    Map<String, byte[]> objects = new LinkedHashMap<>();
    collect(s, n, r.getMessageObjectTrees(0), objects);
    return ObjectCodec.inflate(r.getMessageObjectTrees(0).getObjectId(), objects);
  }

  private static void collect(FleetService s, Node n, ObjectTree t, Map<String, byte[]> out)
      throws Exception {
    out.put(t.getObjectId(), s.pullObject(PullObjectRequest.newBuilder().setNode(n)
        .setRunId(RUN).setObjectId(t.getObjectId()).build(), FleetService.Caller.ANONYMOUS)
        .getObjectContent().toByteArray());
    for (ObjectTree c : t.getChildrenList()) {
      collect(s, n, c, out);
    }
  }

  private static Message honestReply(Message ins, long examples) {
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", examples);
    return ins.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("0",
        Tensor.ofDoubles(Shape.of(3), 2, 3, 4))), "metrics", new MetricRecord(metrics)));
  }

  static PushMessagesRequest push(long node, Message reply, ObjectTree tree) {
    return PushMessagesRequest.newBuilder().setNode(Node.newBuilder().setNodeId(node))
        .addMessagesList(Protos.messageHead(reply.withMessageId(tree.getObjectId())))
        .addMessageObjectTrees(tree).build();
  }

  static void pushObject(FleetService s, long node, String id, byte[] content)
      throws FleetCallException {
    s.pushObject(PushObjectRequest.newBuilder().setNode(Node.newBuilder().setNodeId(node))
        .setRunId(RUN).setObjectId(id).setObjectContent(ByteString.copyFrom(content)).build(),
        FleetService.Caller.ANONYMOUS);
  }

  private static String failure(CompletableFuture<ClientMessage> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(ClientResultException.class);
      return e.getCause().getMessage();
    }
    throw new AssertionError("the answer did not fail");
  }

  /** The node answers an instruction honestly, proving it is still served. */
  private void answersHonestly(FleetService s, long node, FleetNodeRef ref) throws Exception {
    CompletableFuture<ClientMessage> f = ref.get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message reply = honestReply(pull(s, node), 4);
    ObjectCodec.Deflated d = ObjectCodec.deflate(reply);
    for (String id : s.pushMessages(push(node, reply, d.tree()), FleetService.Caller.ANONYMOUS)
        .getObjectsToPushList()) {
      pushObject(s, node, id, d.objects().get(id));
    }
    assertThat(f.get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(4);
  }

  private interface FleetNodeRef {
    FleetNode get();
  }

  private FleetNodeRef only() {
    return () -> (FleetNode) manager.all().getFirst();
  }

  @Test
  void pushObject_honestReply_answersWithItsArraysAndExamples() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message ins = pull(s, node);
    assertThat(ins.metadata().messageType()).isEqualTo("train");
    assertThat(ins.content().get("config").toString()).contains("server-round");
    Message reply = honestReply(ins, 4);
    ObjectCodec.Deflated d = ObjectCodec.deflate(reply);
    List<String> toPush = s.pushMessages(push(node, reply, d.tree()),
        FleetService.Caller.ANONYMOUS).getObjectsToPushList();
    assertThat(toPush).containsExactlyInAnyOrderElementsOf(d.objects().keySet());
    for (String id : toPush) {
      pushObject(s, node, id, d.objects().get(id));
    }
    ClientMessage.FitRes res = f.get(10, TimeUnit.SECONDS).getFitRes();
    assertThat(res.getNumExamples()).isEqualTo(4);
    assertThat(res.getParameters().getTensorType()).isEqualTo(Array.NUMPY);
    assertThat(res.getParameters().getTensorsCount()).isEqualTo(1);
  }

  @Test
  void pushObject_contentNotHashingToItsId_failsOnlyThatAnswer() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message reply = honestReply(pull(s, node), 4);
    ObjectCodec.Deflated d = ObjectCodec.deflate(reply);
    List<String> toPush = s.pushMessages(push(node, reply, d.tree()),
        FleetService.Caller.ANONYMOUS).getObjectsToPushList();
    byte[] forged = d.objects().get(toPush.getFirst()).clone();
    forged[forged.length - 1] ^= 1;
    assertThatThrownBy(() -> pushObject(s, node, toPush.getFirst(), forged))
        .isInstanceOf(FleetCallException.class).hasMessageContaining("does not hash");
    assertThat(failure(f)).contains("does not hash to its id");
    answersHonestly(s, node, only());
  }

  @Test
  void pushMessages_replyToAMessageNotSent_isRefusedAndTheAnswerStillWaits() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message ins = pull(s, node);
    Message stray = honestReply(ins.withMessageId("ab".repeat(32)), 4);
    ObjectCodec.Deflated d = ObjectCodec.deflate(stray);
    assertThatThrownBy(() -> s.pushMessages(push(node, stray, d.tree()),
        FleetService.Caller.ANONYMOUS)).isInstanceOf(FleetCallException.class)
        .hasMessageContaining("not sent");
    assertThat(f).isNotDone();
    Message reply = honestReply(ins, 4);
    ObjectCodec.Deflated ok = ObjectCodec.deflate(reply);
    for (String id : s.pushMessages(push(node, reply, ok.tree()), FleetService.Caller.ANONYMOUS)
        .getObjectsToPushList()) {
      pushObject(s, node, id, ok.objects().get(id));
    }
    assertThat(f.get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(4);
  }

  @Test
  void pushMessages_replyInAnotherNodesName_failsThatAnswer() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message ins = pull(s, node);
    Message reply = honestReply(ins, 4);
    var md = reply.metadata();
    Message other = Message.ofContent(new io.tributary.flower.records.Metadata(md.runId(), "",
        node + 1, md.dstNodeId(), md.replyToMessageId(), md.groupId(), md.ttl(),
        md.messageType(), md.createdAt()), reply.content());
    ObjectCodec.Deflated d = ObjectCodec.deflate(other);
    assertThatThrownBy(() -> s.pushMessages(push(node, other, d.tree()),
        FleetService.Caller.ANONYMOUS)).isInstanceOf(FleetCallException.class);
    assertThat(failure(f)).contains("as its source");
    answersHonestly(s, node, only());
  }

  @Test
  void pushMessages_treeOverTheObjectBound_failsThatAnswer() throws Exception {
    FleetService s = service(new FleetLimits(1 << 20, 4 << 20, 8, 10));
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message reply = honestReply(pull(s, node), 4);
    ObjectTree.Builder wide = ObjectTree.newBuilder().setObjectId("0".repeat(64));
    for (int i = 0; i < 20; i++) {
      wide.addChildren(ObjectTree.newBuilder().setObjectId(String.format("%064x", i)));
    }
    assertThatThrownBy(() -> s.pushMessages(push(node, reply, wide.build()),
        FleetService.Caller.ANONYMOUS)).isInstanceOf(FleetCallException.class);
    assertThat(failure(f)).contains("more than 8 objects");
  }

  private static byte[] object(String type, List<String> children, byte[] body) {
    byte[] head = (type + " " + String.join(",", children) + " " + body.length)
        .getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[head.length + 1 + body.length];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(body, 0, out, head.length + 1, body.length);
    return out;
  }

  @Test
  void pushObject_arrayListingOneChunkOverAndOver_failsThatAnswerBeforeItIsPutTogether()
      throws Exception {
    FleetService s = service(new FleetLimits(1 << 20, 4 << 20, 64, 10));
    long node = join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(),
        Optional.of(Duration.ofSeconds(10)));
    Message ins = pull(s, node);
    // One 512 KiB chunk listed 100 times: 50 MiB once put together, over the 4 MiB bound.
    byte[] chunk = object("ArrayChunk", List.of(), new byte[512 << 10]);
    String chunkId = ObjectCodec.objectId(chunk);
    StringBuilder ids = new StringBuilder("[0");
    for (int i = 1; i < 100; i++) {
      ids.append(", 0");
    }
    ids.append(']');
    byte[] array = object("Array", List.of(chunkId), ("{\"dtype\": \"float64\", \"shape\": "
        + "[3], \"stype\": \"numpy.ndarray\", \"arraychunk_ids\": " + ids + "}")
        .getBytes(StandardCharsets.UTF_8));
    String arrayId = ObjectCodec.objectId(array);
    byte[] record = object("ArrayRecord", List.of(arrayId), ("{\"0\": \"" + arrayId + "\"}")
        .getBytes(StandardCharsets.UTF_8));
    String recordId = ObjectCodec.objectId(record);
    Message honest = honestReply(ins, 4);
    ObjectCodec.Deflated metricsOnly = ObjectCodec.deflate(ins.reply(RecordDict.of("metrics",
        honest.content().get("metrics"))));
    // The metrics record as the honest reply deflates it.
    String metricsId = metricsOnly.tree().getChildren(0).getChildren(0).getObjectId();
    byte[] dict = object("RecordDict", List.of(recordId, metricsId), ("{\"arrays\": \""
        + recordId + "\", \"metrics\": \"" + metricsId + "\"}").getBytes(StandardCharsets.UTF_8));
    String dictId = ObjectCodec.objectId(dict);
    byte[] msgBody = io.tributary.flower.fleet.internal.proto.Message.newBuilder()
        .setMetadata(Protos.metadata(honest.metadata().withMessageId(""))).build().toByteArray();
    byte[] msg = object("Message", List.of(dictId), msgBody);
    String msgId = ObjectCodec.objectId(msg);
    Map<String, byte[]> objects = new LinkedHashMap<>(Map.of(chunkId, chunk, arrayId, array,
        recordId, record, dictId, dict, msgId, msg, metricsId,
        metricsOnly.objects().get(metricsId)));
    ObjectTree tree = ObjectTree.newBuilder().setObjectId(msgId).addChildren(ObjectTree
        .newBuilder().setObjectId(dictId).addChildren(ObjectTree.newBuilder()
            .setObjectId(recordId).addChildren(ObjectTree.newBuilder().setObjectId(arrayId)
                .addChildren(ObjectTree.newBuilder().setObjectId(chunkId))))
        .addChildren(ObjectTree.newBuilder().setObjectId(metricsId))).build();
    List<String> toPush = new ArrayList<>(s.pushMessages(push(node, honest, tree),
        FleetService.Caller.ANONYMOUS).getObjectsToPushList());
    for (String id : toPush) {
      pushObject(s, node, id, objects.get(id));
    }
    assertThat(failure(f)).contains("chunks listed repeatedly");
    answersHonestly(s, node, only());
  }

  @Test
  void heartbeat_stops_nodeGoesOfflineAndItsInstructionFails() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    join(s);
    CompletableFuture<ClientMessage> f = only().get().request(fitIns(), Optional.empty());
    assertThat(manager.size()).isEqualTo(1);
    s.sweep();
    assertThat(manager.size()).isEqualTo(1);
    // Far past twice the 30 s interval: what the sweep sees after the heartbeats stop.
    s.sweepAt(System.nanoTime() + TimeUnit.SECONDS.toNanos(61));
    assertThat(manager.size()).isZero();
    assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).hasMessageContaining("heartbeats");
  }

  @Test
  void heartbeatsStop_nodeStillPulling_staysOnlineUntilItsCallsStopToo() throws Exception {
    FleetService s = service(FleetLimits.defaults());
    long node = join(s);
    Thread.sleep(200);
    long pulled = System.nanoTime();
    s.pullMessages(io.tributary.flower.fleet.internal.proto.PullMessagesRequest.newBuilder()
        .setNode(Node.newBuilder().setNodeId(node)).build(), FleetService.Caller.ANONYMOUS);
    // Past twice the interval after its last heartbeat (at activation), not after its pull.
    s.sweepAt(pulled + TimeUnit.SECONDS.toNanos(60) - TimeUnit.MILLISECONDS.toNanos(100));
    assertThat(manager.size()).isEqualTo(1);
    s.sweepAt(System.nanoTime() + TimeUnit.SECONDS.toNanos(61));
    assertThat(manager.size()).isZero();
  }
}
