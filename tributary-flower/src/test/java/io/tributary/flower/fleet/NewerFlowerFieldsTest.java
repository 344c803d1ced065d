package io.tributary.flower.fleet;

import static io.tributary.flower.fleet.HttpTransportTest.await;
import static io.tributary.flower.fleet.HttpTransportTest.node;
import static io.tributary.flower.fleet.HttpTransportTest.train;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnknownFieldSet;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.Protos;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fields Flower added after 1.27, which Flower 1.27 cannot produce: a message id computed from
 * the documented hashing of Flower's serialization when the metadata carries
 * {@code src_task_id}/{@code dst_task_id}; {@code Run.series_id}/{@code primary_task_id} handed to
 * the app's {@link Context}, which the node keeps per series and whose {@link Context#version()}
 * counts its stores, over HTTP and grpc-rere; and an array of a serialization type the node does not know, which
 * gets a Flower {@code Error} reply while the node serves on. The ids without the new fields are
 * checked against Flower 1.27 itself in {@link ObjectCodecFlowerTest}.
 */
@Timeout(60)
class NewerFlowerFieldsTest {
  private static UnknownFieldSet.Field text(String v) {
    return UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.copyFromUtf8(v))
        .build();
  }

  private static UnknownFieldSet.Field varint(long v) {
    return UnknownFieldSet.Field.newBuilder().addVarint(v).build();
  }

  /** Flower's protobuf bytes of {@code Metadata}, written field by field in field order. */
  private static byte[] metadataBytes(Metadata m, String srcTask, String dstTask)
      throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(bytes);
    o.writeUInt64(1, m.runId()); // message_id (2) is empty in the hashed form
    o.writeUInt64(3, m.srcNodeId());
    o.writeUInt64(4, m.dstNodeId());
    o.writeString(5, m.replyToMessageId());
    o.writeString(6, m.groupId());
    o.writeDouble(7, m.ttl());
    o.writeString(8, m.messageType());
    o.writeDouble(9, m.createdAt());
    o.writeString(10, srcTask);
    o.writeString(11, dstTask);
    o.flush();
    return bytes.toByteArray();
  }

  @Test
  void deflate_taskIdsOfANewerFlower_idIsTheSha256OfFlowersSerialization() throws Exception {
    Metadata md = new Metadata(7, "", 1, 1234567890123L, "reply-to", "2", 43200.0, "train",
        1700000000.125);
    Message m = Message.ofContent(md, RecordDict.of("config",
        new ConfigRecord(Map.of("server-round", 3L))));
    UnknownFieldSet extra = UnknownFieldSet.newBuilder()
        .addField(Protos.SRC_TASK_ID, text("task-a")).addField(Protos.DST_TASK_ID, text("task-b"))
        .build();
    ObjectCodec.Deflated without = ObjectCodec.deflate(m);
    ObjectCodec.Deflated with = ObjectCodec.deflate(m, extra);

    // Message body: field 1 (metadata), length-delimited; no error
    byte[] meta = metadataBytes(md, "task-a", "task-b");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(body);
    o.writeByteArray(1, meta);
    o.flush();
    // "<Type> <child ids joined by ','> <body length>" NUL body, hashed with SHA-256
    String child = with.tree().getChildren(0).getObjectId();
    byte[] head = ("Message " + child + " " + body.size()).getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    content.write(head);
    content.write(0);
    content.write(body.toByteArray());
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(content.toByteArray()));

    assertThat(with.rootId()).isEqualTo(expected);
    assertThat(with.objects().get(expected)).isEqualTo(content.toByteArray());
    assertThat(with.rootId()).isNotEqualTo(without.rootId());
    assertThat(child).isEqualTo(without.tree().getChildren(0).getObjectId());
    // and a node that inflates it checks the same id
    assertThat(ObjectCodec.inflate(with.rootId(), with.objects()).metadata().messageId())
        .isEqualTo(expected);
  }

  @Test
  void serve_runOfANewerFlower_contextCarriesSeriesAndPrimaryTask() throws Exception {
    List<Context> seen = new CopyOnWriteArrayList<>();
    ClientApp app = ClientApp.builder().train((msg, ctx) -> {
      seen.add(ctx);
      return msg.reply(RecordDict.empty());
    }).build();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.runExtra = UnknownFieldSet.newBuilder()
          .addField(Protos.RUN_PRIMARY_TASK_ID, varint(-2L))
          .addField(Protos.RUN_SERIES_ID, text("series-9")).build();
      link.offer(train(1));
      try (SuperNode node = node(link, new PlusKApp()).clientApp(app).build().start()) {
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
      }
      assertThat(seen).hasSize(1);
      assertThat(seen.getFirst().seriesId()).contains("series-9");
      assertThat(seen.getFirst().primaryTaskId()).contains("18446744073709551614");
    }
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      seen.clear();
      link.offer(train(1));
      try (SuperNode node = node(link, new PlusKApp()).clientApp(app).build().start()) {
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
      }
      assertThat(seen.getFirst().seriesId()).isEmpty();
      assertThat(seen.getFirst().primaryTaskId()).isEmpty();
    }
  }

  /** A train message of run {@code run}. */
  private static Message trainOfRun(long run, long round) {
    Message m = train(round);
    return Message.ofContent(new Metadata(run, "", 0, 0, "", "", 3600, "train",
        m.metadata().createdAt()), m.content());
  }

  /**
   * An app that counts its calls in the context's state and notes, per call, "run/version/count
   * before the call".
   */
  private static ClientApp counting(List<String> seen) {
    return ClientApp.builder().train((msg, ctx) -> {
      ConfigRecord counter = ctx.state().configRecords().get("counter");
      long n = counter == null ? 0 : (Long) counter.get("n");
      seen.add(ctx.runId() + "/" + ctx.version() + "/" + n);
      ctx.setState(RecordDict.of("counter", new ConfigRecord(Map.of("n", n + 1))));
      return msg.reply(RecordDict.empty());
    }).build();
  }

  private static final UnknownFieldSet SERIES = UnknownFieldSet.newBuilder()
      .addField(Protos.RUN_SERIES_ID, varint(9)).build();

  @Test
  void serve_runsOfOneSeriesOverHttp_oneContextWhoseVersionCountsTheStores() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.runExtra = SERIES;
      List<String> ids = List.of(link.offer(trainOfRun(7, 1)), link.offer(trainOfRun(8, 1)),
          link.offer(trainOfRun(7, 2)));
      try (SuperNode node = node(link, new PlusKApp()).clientApp(counting(seen)).build()
          .start()) {
        await(() -> link.pushed.size() >= 3, Duration.ofSeconds(20));
      }
      // one context for the series: each handler sees the stores before it, whichever run
      assertThat(seen).containsExactly("7/0/0", "8/1/1", "7/2/2");
      assertThat(link.pushed).extracting(r -> r.getMessagesList(0).getMetadata()
          .getReplyToMessageId()).containsExactlyElementsOf(ids);
      assertThat(link.refusals).isEmpty();
    }
  }

  @Test
  void serve_runsWithoutASeries_aContextPerRun() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.offer(trainOfRun(7, 1));
      link.offer(trainOfRun(8, 1));
      link.offer(trainOfRun(7, 2));
      try (SuperNode node = node(link, new PlusKApp()).clientApp(counting(seen)).build()
          .start()) {
        await(() -> link.pushed.size() >= 3, Duration.ofSeconds(20));
      }
      assertThat(seen).containsExactly("7/0/0", "8/0/0", "7/1/1");
    }
  }

  @Test
  void serve_runsOfOneSeriesOverGrpcRere_oneContextWhoseVersionCountsTheStores()
      throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    FakeSuperLinkTest link = new FakeSuperLinkTest();
    link.runExtra = SERIES;
    io.grpc.Server server = link.start();
    RecordDict model = FakeSuperLinkTest.model(Array.fromTensor(io.tributary.tensor.Tensor
        .ofFloats(io.tributary.tensor.Shape.of(2), 1, 2)));
    link.offer(7, "train", model);
    link.offer(8, "train", model);
    link.offer(7, "train", model);
    try (SuperNode node = SuperNode.builder("127.0.0.1:" + server.getPort())
        .transport(FleetTransport.grpcRere()).insecure(true).clientApp(counting(seen))
        .pollInterval(Duration.ofMillis(50)).build().start()) {
      await(() -> link.pushed.size() >= 3, Duration.ofSeconds(20));
    } finally {
      server.shutdownNow();
    }
    assertThat(seen).containsExactly("7/0/0", "8/1/1", "7/2/2");
    assertThat(link.pushed).allSatisfy(r -> assertThat(r.getMessagesList(0).hasError())
        .isFalse());
  }

  @Test
  void serve_arrayOfAnUnknownStype_errorReplyAndTheNodeServesOn() throws Exception {
    PlusKApp app = new PlusKApp();
    Metadata md = new Metadata(HttpContractSuperLink.RUN, "", 0, 0, "", "", 3600, "train",
        System.currentTimeMillis() / 1000.0);
    Message sparse = Message.ofContent(md, RecordDict.of(
        "arrays", new ArrayRecord(Map.of("w", new Array("float32", new int[] {3},
            "torch.sparse_coo", new byte[] {1, 2, 3, 4}))),
        "config", new ConfigRecord(Map.of("server-round", 1L))));
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      String bad = link.offer(sparse);
      String good = link.offer(train(2));
      try (SuperNode node = node(link, app).build().start()) {
        await(() -> link.pushed.size() >= 2, Duration.ofSeconds(20));
        assertThat(node.failure()).isNull();
      }
      assertThat(link.pushed).hasSize(2);
      var first = link.pushed.get(0).getMessagesList(0);
      assertThat(first.getMetadata().getReplyToMessageId()).isEqualTo(bad);
      assertThat(first.hasError()).isTrue();
      assertThat(first.getError().getCode()).isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
      assertThat(first.getError().getReason()).contains("torch.sparse_coo");
      var second = link.pushed.get(1).getMessagesList(0);
      assertThat(second.getMetadata().getReplyToMessageId()).isEqualTo(good);
      assertThat(second.hasError()).isFalse();
      assertThat(app.reports).hasSize(1);
    }
  }
}
