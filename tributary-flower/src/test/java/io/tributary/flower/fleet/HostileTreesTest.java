package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Object trees a hostile or merely unusual SuperLink sends the Java SuperNode, on the in-process
 * fake SuperLink of {@link FakeSuperLinkTest}: a 150 KiB message standing for 90,000 copies of a
 * 64 KiB array, one chunk listed 1,048,576 times, and children in another order than the heads
 * list them (as Flower's SQL store returns them). The first two get an error reply naming the
 * bound before any array is allocated; a shared child is inflated once and shared; the last
 * trains.
 */
@Timeout(90)
class HostileTreesTest {
  final FakeSuperLinkTest fake = new FakeSuperLinkTest();

  /** An object's content: {@code "<type> <children> <len>\0<body>"}; its id is its SHA-256. */
  static byte[] object(String type, List<String> children, byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes((type + " " + String.join(",", children) + " " + body.length)
        .getBytes(StandardCharsets.UTF_8));
    out.write(0);
    out.writeBytes(body);
    return out.toByteArray();
  }

  String put(String type, List<String> children, String body) {
    return put(type, children, body.getBytes(StandardCharsets.UTF_8));
  }

  String put(String type, List<String> children, byte[] body) {
    byte[] c = object(type, children, body);
    String id = ObjectCodec.objectId(c);
    fake.store.put(id, c);
    return id;
  }

  static String names(String prefix, int n, String id) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(prefix).append(i).append("\": \"")
          .append(id).append('"');
    }
    return b.append('}').toString();
  }

  /** Queues a message whose content is the RecordDict {@code recordDict} of depth 4 below it. */
  String offerRaw(String recordDict, ObjectTree contentTree) {
    Metadata md = new Metadata(1, "", 0, FakeSuperLinkTest.NODE, "", "", 3600, "train",
        System.currentTimeMillis() / 1000.0);
    byte[] body = io.tributary.flower.fleet.internal.proto.Message.newBuilder()
        .setMetadata(io.tributary.flower.fleet.internal.Protos.metadata(md)).build().toByteArray();
    String root = put("Message", List.of(recordDict), body);
    fake.trees.put(root, ObjectTree.newBuilder().setObjectId(root).addChildren(contentTree)
        .build());
    synchronized (fake.queue) {
      fake.queue.add(Message.ofContent(md.withMessageId(root), RecordDict.empty()));
    }
    return root;
  }

  static ObjectTree leaf(String id) {
    return ObjectTree.newBuilder().setObjectId(id).build();
  }

  static ObjectTree node(String id, ObjectTree child) {
    return ObjectTree.newBuilder().setObjectId(id).addChildren(child).build();
  }

  /** RecordDict of 300 names -> one ArrayRecord of 300 names -> one 64 KiB array. */
  String offerSquare() {
    byte[] data = new byte[64 * 1024];
    String chunk = put("ArrayChunk", List.of(), data);
    String array = put("Array", List.of(chunk), "{\"dtype\": \"float32\", \"shape\": [16384], "
        + "\"stype\": \"raw\", \"arraychunk_ids\": [0]}");
    String ar = put("ArrayRecord", List.of(array), names("a", 300, array));
    String rd = put("RecordDict", List.of(ar), names("r", 300, ar));
    return offerRaw(rd, node(rd, node(ar, node(array, leaf(chunk)))));
  }

  /** Everything a train handler received: its message's content. */
  final List<RecordDict> received = new CopyOnWriteArrayList<>();

  ClientApp counting() {
    return ClientApp.builder().train((m, ctx) -> {
      received.add(m.content());
      return m.reply(RecordDict.of("metrics", new MetricRecord(Map.of("num-examples", 1L))));
    }).build();
  }

  List<io.tributary.flower.fleet.internal.proto.Message> serve(SuperNode.Builder b, int replies)
      throws Exception {
    try (SuperNode node = b.build().start()) {
      long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (fake.pushed.size() < replies && System.nanoTime() < end) {
        Thread.sleep(50);
      }
    }
    List<io.tributary.flower.fleet.internal.proto.Message> out = new ArrayList<>();
    fake.pushed.forEach(p -> out.add(p.getMessagesList(0)));
    return out;
  }

  SuperNode.Builder builder(Server server, ClientApp app) {
    return SuperNode.builder("127.0.0.1:" + server.getPort()).transport(FleetTransport.grpcRere())
        .insecure(true).clientApp(app).pollInterval(Duration.ofMillis(50));
  }

  @Test
  void serve_sharedChildren300x300_refusedByTheInflatedBoundAndTheNodeGoesOn() throws Exception {
    Server server = fake.start();
    try {
      String square = offerSquare();
      String fine = fake.offer("train", FakeSuperLinkTest.model(Array.fromTensor(
          Tensor.ofFloats(Shape.of(2), 1, 2))), false);
      var replies = serve(builder(server, counting()).maxInflatedBytes(1L << 30), 2);
      assertThat(replies).hasSize(2);
      var refused = replies.stream().filter(r -> r.getMetadata().getReplyToMessageId()
          .equals(square)).findFirst().orElseThrow();
      assertThat(refused.getError().getCode()).isEqualTo(MessageError.MESSAGE_UNAVAILABLE);
      assertThat(refused.getError().getReason()).contains("inflates to "
          + (300L * 300 * 64 * 1024) + " bytes", "bound of " + (1L << 30));
      assertThat(replies.stream().filter(r -> r.getMetadata().getReplyToMessageId()
          .equals(fine)).findFirst().orElseThrow().hasError()).isFalse();
      assertThat(received).hasSize(1);
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void serve_sharedChildrenWithinTheBound_inflatedOnceAndShared() throws Exception {
    Server server = fake.start();
    try {
      offerSquare();
      var replies = serve(builder(server, counting()).maxInflatedBytes(Long.MAX_VALUE), 1);
      assertThat(replies).hasSize(1);
      assertThat(replies.getFirst().hasError()).isFalse();
      RecordDict d = received.getFirst();
      assertThat(d.records()).hasSize(300);
      ArrayRecord first = (ArrayRecord) d.get("r0");
      assertThat(d.get("r299")).isSameAs(first);
      assertThat(first.arrays()).hasSize(300);
      assertThat(first.arrays().get("a299")).isSameAs(first.arrays().get("a0"));
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void serve_oneChunkListedAMillionTimes_refusedBeforeAllocating() throws Exception {
    Server server = fake.start();
    try {
      String chunk = put("ArrayChunk", List.of(), new byte[1000]);
      StringBuilder ids = new StringBuilder("[");
      for (int i = 0; i < 1 << 20; i++) {
        ids.append(i == 0 ? "0" : ", 0");
      }
      String array = put("Array", List.of(chunk), "{\"dtype\": \"uint8\", \"shape\": ["
          + (1000L << 20) + "], \"stype\": \"raw\", \"arraychunk_ids\": " + ids + "]}");
      String ar = put("ArrayRecord", List.of(array), names("a", 1, array));
      String rd = put("RecordDict", List.of(ar), names("r", 1, ar));
      String id = offerRaw(rd, node(rd, node(ar, node(array, leaf(chunk)))));
      var replies = serve(builder(server, counting()).maxInflatedBytes(256L << 20), 1);
      assertThat(replies).hasSize(1);
      assertThat(replies.getFirst().getMetadata().getReplyToMessageId()).isEqualTo(id);
      assertThat(replies.getFirst().getError().getReason())
          .contains("inflates to " + (1000L << 20) + " bytes");
      assertThat(received).isEmpty();
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void serve_childrenSortedById_acceptedAsFlowersSqlStoreSendsThem() throws Exception {
    Server server = fake.start();
    try {
      PlusKApp app = new PlusKApp();
      java.util.LinkedHashMap<String, io.tributary.flower.records.Record> records =
          new java.util.LinkedHashMap<>();
      records.put("arrays", ArrayRecord.fromTensors(Map.of(
          "w", Tensor.ofFloats(Shape.of(2), 1, 2), "b", Tensor.ofFloats(Shape.of(1), 3),
          "c", Tensor.ofFloats(Shape.of(1), 4))));
      records.put("config", new io.tributary.flower.records.ConfigRecord(
          Map.of("server-round", 1L)));
      records.put("more", new io.tributary.flower.records.ConfigRecord(Map.of("x", 1L)));
      RecordDict content = new RecordDict(records);
      String id = fake.offer("train", content, false);
      ObjectTree asSent = fake.trees.get(id);
      assertThat(sorted(asSent)).as("some children are out of the heads' order")
          .isNotEqualTo(asSent);
      fake.trees.put(id, sorted(asSent));
      var replies = serve(builder(server, app.app()).nodeConfig(Map.of("k", 1L)), 1);
      assertThat(replies).hasSize(1);
      assertThat(replies.getFirst().hasError()).as("%s", replies.getFirst().getError()).isFalse();
      assertThat(app.reports).hasSize(1);
    } finally {
      server.shutdownNow();
    }
  }

  /** {@code t} with every node's children sorted by object id. */
  static ObjectTree sorted(ObjectTree t) {
    List<ObjectTree> kids = new ArrayList<>();
    for (ObjectTree c : t.getChildrenList()) {
      kids.add(sorted(c));
    }
    kids.sort(Comparator.comparing(ObjectTree::getObjectId));
    return ObjectTree.newBuilder().setObjectId(t.getObjectId()).addAllChildren(kids).build();
  }
}
