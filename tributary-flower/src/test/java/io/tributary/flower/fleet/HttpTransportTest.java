package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Backoff;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The SuperNode over HTTP against {@link HttpContractSuperLink}, which checks every request as
 * Flower 1.40+'s HTTP Fleet API does: the node authenticates every call, echoes the push's
 * session id, retries 503s with backoff, stops in one line on a 401 and gives up after a bounded
 * number of garbage answers.
 */
@Timeout(60)
class HttpTransportTest {
  static Message train(long round) {
    Metadata md = new Metadata(HttpContractSuperLink.RUN, "", 0, 0, "", "", 3600, "train",
        System.currentTimeMillis() / 1000.0);
    return Message.ofContent(md, RecordDict.of(
        "arrays", new ArrayRecord(Map.of("w", Array.fromTensor(Tensor.ofFloats(Shape.of(3),
            1, 2, 3)))),
        "config", new ConfigRecord(Map.of("server-round", round))));
  }

  static SuperNode.Builder node(HttpContractSuperLink link, PlusKApp app) {
    return SuperNode.builder(link.address()).transport(FleetTransport.http()).insecure(true)
        .nodeConfig(Map.of("k", 2L)).clientApp(app.app()).pollInterval(Duration.ofMillis(50))
        .backoff(Backoff.DEFAULT.withDelays(Duration.ofMillis(50), Duration.ofMillis(200))
            .withMaxAttempts(Integer.MAX_VALUE));
  }

  static void await(BooleanSupplier done, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < end) {
      Thread.sleep(20);
    }
  }

  @Test
  void serve_overHttp_everyCallAuthenticatedAndTheReplysObjectsCarryTheSessionId()
      throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      String id = link.offer(train(1));
      SuperNode node = node(link, app).build().start();
      try {
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
      } finally {
        node.close();
      }
      assertThat(link.refusals).isEmpty();
      assertThat(link.calls).startsWith("register-node", "activate-node");
      assertThat(link.calls).contains("get-run", "pull-object", "confirm-message-received",
          "push-messages", "push-object", "deactivate-node", "unregister-node");
      assertThat(link.pushed).hasSize(1);
      var head = link.pushed.getFirst().getMessagesList(0);
      assertThat(head.getMetadata().getReplyToMessageId()).isEqualTo(id);
      assertThat(head.hasError()).isFalse();
      assertThat(link.pushedObjects).isNotEmpty();
      assertThat(link.pushedObjects).allSatisfy(o -> assertThat(o.getSessionId()).isNotEmpty());
      assertThat(app.reports).hasSize(1);
      assertThat(app.reports.getFirst().arrays().get("w").getFloat(2)).isEqualTo(5f);
      assertThat(node.leftCleanly()).isTrue();
      assertThat(link.versionHeaders.getFirst()).containsEntry("flwr-package-name", "tributary")
          .containsEntry("flwr-component-name", "supernode");
    }
  }

  @Test
  void serve_twoNodesSharingOneHttpClient_bothServeAndClosingThemLeavesTheClientOpen()
      throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpClient shared = SuperNode.newHttpClient();
        HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.offer(train(1));
      link.offer(train(1));
      SuperNode a = node(link, app).httpClient(shared).build().start();
      SuperNode b = node(link, app).httpClient(shared).build().start();
      try {
        await(() -> link.pushed.size() >= 2, Duration.ofSeconds(20));
      } finally {
        a.close();
        b.close();
      }
      assertThat(link.refusals).isEmpty();
      assertThat(link.pushed).hasSize(2);
      assertThat(a.leftCleanly()).isTrue();
      assertThat(b.leftCleanly()).isTrue();
      // The nodes left the client they shared open for its owner.
      HttpResponse<String> after = shared.send(HttpRequest.newBuilder(URI.create("http://"
          + link.address() + FleetTransport.FLEET_V1 + "/get-run")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(after.statusCode()).isGreaterThanOrEqualTo(400);
    }
  }

  @Test
  void build_sharedHttpClientWithRootCertificatesOrRedirects_refusedNamingWhy() {
    try (HttpClient shared = SuperNode.newHttpClient();
        HttpClient redirecting = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL).build()) {
      assertThatThrownBy(() -> SuperNode.builder("127.0.0.1:1").httpClient(shared)
          .rootCertificates(java.nio.file.Path.of("ca.pem")).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TLS trust");
      assertThatThrownBy(() -> SuperNode.builder("127.0.0.1:1").insecure(true)
          .httpClient(redirecting).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("redirects");
    }
  }

  @Test
  void serve_idle_sendsAuthenticatedHeartbeatsWithinTheDeclaredInterval() throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      try (SuperNode node = node(link, app).heartbeatInterval(10).build().start()) {
        assertThat(node.awaitActive(Duration.ofSeconds(10))).isTrue();
        // (10 s - 5 s) x 0.8 +- 10 %: the first heartbeat within 4.4 s of activation
        await(() -> link.count("send-node-heartbeat") > 0, Duration.ofSeconds(8));
      }
      assertThat(link.count("send-node-heartbeat")).isPositive();
      assertThat(link.refusals).isEmpty();
    }
  }

  @Test
  void serve_registeredKeys_onlyActivatesUnderItsBoundNodeId() throws Exception {
    PlusKApp app = new PlusKApp();
    KeyPair keys = NodeAuth.generate();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_REST_V0)) {
      long id = link.register(NodeAuth.pem(keys));
      link.offer(train(1));
      try (SuperNode node = node(link, app).transport(FleetTransport.http(
          FleetTransport.FLEET_REST_V0)).authKeys(keys).build().start()) {
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
        assertThat(node.nodeId()).isEqualTo(id);
      }
      assertThat(link.refusals).isEmpty();
      assertThat(link.count("register-node")).isZero();
      assertThat(link.count("unregister-node")).isZero();
      assertThat(link.pushed).hasSize(1);
      assertThat(link.pushed.getFirst().getNode().getNodeId()).isEqualTo(id);
    }
  }

  @Test
  void serve_superLinkAnswers503_retriesWithBackoffAndJoins() throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.unavailableLeft.set(4);
      try (SuperNode node = node(link, app).build().start()) {
        assertThat(node.awaitActive(Duration.ofSeconds(20))).isTrue();
        assertThat(node.failure()).isNull();
      }
      assertThat(link.refusals).hasSize(4).allSatisfy(r -> assertThat(r).startsWith("503"));
    }
  }

  @Test
  void serve_superLinkForgetsTheNodeItServed_registersAgainUnderANewIdAndServes()
      throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      try (SuperNode node = node(link, app).build().start()) {
        assertThat(node.awaitActive(Duration.ofSeconds(20))).isTrue();
        await(() -> link.count("pull-messages") > 0, Duration.ofSeconds(20));
        long before = node.nodeId();
        // What a restarted SuperLink without its database knows: no node at all.
        link.nodes.clear();
        link.active.clear();
        String id = link.offer(train(1));
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
        assertThat(node.failure()).isNull();
        assertThat(node.nodeId()).isNotEqualTo(before);
        assertThat(link.refusals).anySatisfy(r -> assertThat(r).startsWith("401")
            .contains("Invalid node ID"));
        assertThat(link.count("register-node")).isEqualTo(2);
        assertThat(link.pushed).hasSize(1);
        assertThat(link.pushed.getFirst().getNode().getNodeId()).isEqualTo(node.nodeId());
        assertThat(link.pushed.getFirst().getMessagesList(0).getMetadata()
            .getReplyToMessageId()).isEqualTo(id);
      }
    }
  }

  @Test
  void serve_superLinkRefusesTheNode_stopsWithTheDetailInOneLine() throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.refuseEveryKey = true;
      SuperNode node = node(link, app).build().start();
      await(() -> node.failure() != null, Duration.ofSeconds(20));
      node.close();
      assertThat(node.failure()).isNotNull();
      assertThat(node.failure().getMessage()).contains("401", "Public key not recognized")
          .doesNotContain("\n");
      assertThat(link.refusals).hasSize(1);
      assertThat(node.isActive()).isFalse();
    }
  }

  @Test
  void serve_garbageAndOversizedAnswers_boundedRetriesThenGivesUp() throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.answerGarbage = true;
      SuperNode node = node(link, app).backoff(Backoff.DEFAULT.withDelays(Duration.ofMillis(20),
          Duration.ofMillis(40)).withMaxAttempts(3)).build().start();
      await(() -> node.failure() != null, Duration.ofSeconds(20));
      node.close();
      assertThat(node.failure().getMessage()).isEqualTo("gave up on " + link.address()
          + " after 3 attempts");
      assertThat(link.calls).hasSize(3);
    }
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      link.oversizedAnswerBytes = 8192;
      SuperNode node = node(link, app).maxResponseBytes(4096).backoff(Backoff.DEFAULT
          .withDelays(Duration.ofMillis(20), Duration.ofMillis(40)).withMaxAttempts(2))
          .build().start();
      await(() -> node.failure() != null, Duration.ofSeconds(20));
      node.close();
      assertThat(node.failure().getMessage()).contains("after 2 attempts");
      assertThat(node.isActive()).isFalse();
    }
  }

  @Test
  void serve_wrongPathPrefix_notFoundIsRetriedThenGivesUp() throws Exception {
    PlusKApp app = new PlusKApp();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      SuperNode node = node(link, app).transport(FleetTransport.http("/api/v0/fleet"))
          .backoff(Backoff.DEFAULT.withDelays(Duration.ofMillis(20), Duration.ofMillis(40))
              .withMaxAttempts(2)).build().start();
      await(() -> node.failure() != null, Duration.ofSeconds(20));
      node.close();
      assertThat(node.failure()).isNotNull();
      assertThat(link.refusals).isNotEmpty().allSatisfy(r -> assertThat(r).startsWith("404"));
    }
  }

  @Test
  void serve_taskIdsOfANewerFlower_swappedIntoTheReplyAndCoveredByItsId() throws Exception {
    PlusKApp app = new PlusKApp();
    var field = (java.util.function.Function<String, com.google.protobuf.UnknownFieldSet.Field>)
        v -> com.google.protobuf.UnknownFieldSet.Field.newBuilder()
            .addLengthDelimited(com.google.protobuf.ByteString.copyFromUtf8(v)).build();
    var extra = com.google.protobuf.UnknownFieldSet.newBuilder()
        .addField(io.tributary.flower.fleet.internal.Protos.SRC_TASK_ID, field.apply("server-task"))
        .addField(io.tributary.flower.fleet.internal.Protos.DST_TASK_ID, field.apply("node-task"))
        .build();
    try (HttpContractSuperLink link = new HttpContractSuperLink(FleetTransport.FLEET_V1)) {
      String id = link.offer(train(1), extra);
      try (SuperNode node = node(link, app).build().start()) {
        await(() -> !link.pushed.isEmpty(), Duration.ofSeconds(20));
      }
      var head = link.pushed.getFirst().getMessagesList(0);
      assertThat(head.getMetadata().getReplyToMessageId()).isEqualTo(id);
      var unknown = head.getMetadata().getUnknownFields();
      assertThat(unknown.getField(io.tributary.flower.fleet.internal.Protos.SRC_TASK_ID)
          .getLengthDelimitedList().getFirst().toStringUtf8()).isEqualTo("node-task");
      assertThat(unknown.getField(io.tributary.flower.fleet.internal.Protos.DST_TASK_ID)
          .getLengthDelimitedList().getFirst().toStringUtf8()).isEqualTo("server-task");
      // the reply's Message object, whose hash is the reply's id, holds the same metadata
      byte[] root = link.store.get(head.getMetadata().getMessageId());
      assertThat(root).isNotNull();
      int zero = 0;
      while (root[zero] != 0) {
        zero++;
      }
      var body = io.tributary.flower.fleet.internal.proto.Message.parseFrom(
          java.util.Arrays.copyOfRange(root, zero + 1, root.length));
      assertThat(body.getMetadata().getUnknownFields()).isEqualTo(unknown);
      assertThat(body.getMetadata().getMessageId()).isEmpty();
    }
  }
}
