package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.fleet.internal.FleetRpc;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.proto.ActivateNodeRequest;
import io.tributary.flower.fleet.internal.proto.Node;
import io.tributary.flower.fleet.internal.proto.PushMessagesResponse;
import io.tributary.flower.fleet.internal.proto.PushObjectRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.FleetLimits;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.PlusK;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.GrpcServers;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.RemoteClient;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fleet nodes' large replies wait for the server's inbound budget, as Join streams' fit answers
 * do: a node not admitted waits in {@code PushMessages} with its reply on its side, and is let
 * through when the round takes an earlier answer or waits for this one.
 */
@Timeout(60)
class FleetReadAheadTest {
  private static final int ELEMENTS = 20_000; // 160 KB of float64: above OutboundBudget.SMALL
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  @TempDir Path dir;
  private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
  private final ClientManager manager = new ClientManager();
  // Room for one answer of the model, not two.
  private final InboundBudget inbound = new InboundBudget(ELEMENTS * 8 * 3 / 2);
  private final FleetService service = new FleetService(manager, new FleetService.RunInfo(7,
      "p/app", "1.0", "00", new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
      FleetLimits.defaults(), timer, new Traffic(), inbound, Optional.empty());

  @AfterEach
  void stop() {
    calls.shutdownNow();
    timer.shutdownNow();
  }

  private static ServerMessage largeFitIns() {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(Parameters.newBuilder().setTensorType(Array.NUMPY)
            .addTensors(ByteString.copyFrom(Array.fromTensor(model(1)).data())))
        .putConfig("server_round", io.tributary.flower.internal.proto.Scalar.newBuilder()
            .setSint64(1).build())).build();
  }

  private static Tensor model(double value) {
    double[] w = new double[ELEMENTS];
    java.util.Arrays.fill(w, value);
    return Tensor.ofDoubles(Shape.of(ELEMENTS), w);
  }

  private FleetNode node(long nodeId) {
    for (RemoteClient c : manager.all()) {
      if (c instanceof FleetNode n && n.nodeId() == nodeId) {
        return n;
      }
    }
    throw new AssertionError("node " + nodeId + " is not online");
  }

  /** A node that has trained: the instruction pulled and its reply made. */
  private record Trained(long nodeId, ObjectCodec.Deflated reply, Message message) {}

  private Trained train(long nodeId, double value) throws Exception {
    Message ins = HostileNodeTest.pull(service, nodeId);
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", 5L);
    Message reply = ins.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("0",
        model(value))), "metrics", new MetricRecord(metrics)));
    return new Trained(nodeId, ObjectCodec.deflate(reply), reply);
  }

  private Future<PushMessagesResponse> pushMessages(Trained t) {
    return calls.submit(() -> service.pushMessages(HostileNodeTest.push(t.nodeId(),
        t.message(), t.reply().tree()), FleetService.Caller.ANONYMOUS));
  }

  private void pushObjects(Trained t, List<String> ids) throws Exception {
    for (String id : ids) {
      HostileNodeTest.pushObject(service, t.nodeId(), id, t.reply().objects().get(id));
    }
  }

  private static void stillWaiting(Future<?> f) throws InterruptedException {
    Thread.sleep(300);
    assertThat(f).isNotDone();
  }

  /** Two nodes sent a large instruction each and trained; B's reply waits behind A's share. */
  private record Queued(long a, long b, CompletableFuture<ClientMessage> fa,
      CompletableFuture<ClientMessage> fb, Trained ta, Trained tb,
      Future<PushMessagesResponse> pushB) {}

  private Queued bWaitingBehindA() throws Exception {
    long a = HostileNodeTest.join(service);
    long b = HostileNodeTest.join(service);
    CompletableFuture<ClientMessage> fa = node(a).request(largeFitIns(),
        Optional.of(Duration.ofSeconds(30)));
    CompletableFuture<ClientMessage> fb = node(b).request(largeFitIns(),
        Optional.of(Duration.ofSeconds(30)));
    Trained ta = train(a, 2);
    Trained tb = train(b, 3);
    Future<PushMessagesResponse> pushB = pushMessages(tb);
    stillWaiting(pushB);
    return new Queued(a, b, fa, fb, ta, tb, pushB);
  }

  @Test
  void pushMessages_budgetHeldByAnEarlierAnswer_waitsUntilTheRoundTakesIt() throws Exception {
    Queued q = bWaitingBehindA();
    assertThat(node(q.b()).awaitingAdmission()).isTrue();
    pushObjects(q.ta(), pushMessages(q.ta()).get(10, TimeUnit.SECONDS).getObjectsToPushList());
    assertThat(q.fa().get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(5);
    // A's answer is not yet taken by the round: its share is still held.
    stillWaiting(q.pushB());

    node(q.a()).releaseAnswer();
    pushObjects(q.tb(), q.pushB().get(10, TimeUnit.SECONDS).getObjectsToPushList());
    assertThat(q.fb().get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(5);
    node(q.b()).releaseAnswer();
    // Both shares are back: the next large instruction is admitted at once.
    node(q.a()).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
    assertThat(node(q.a()).awaitingAdmission()).isFalse();
  }

  @Test
  void expedite_replyWaitingForTheBudget_isLetThroughAtOnce() throws Exception {
    Queued q = bWaitingBehindA();
    // The round waits for B's answer now: B goes through although A still holds the budget.
    node(q.b()).expedite();
    pushObjects(q.tb(), q.pushB().get(10, TimeUnit.SECONDS).getObjectsToPushList());
    assertThat(q.fb().get(10, TimeUnit.SECONDS).getFitRes().getParameters().getTensorsCount())
        .isEqualTo(1);
  }

  @Test
  void pushObject_beforeAdmission_isNotStored() throws Exception {
    Queued q = bWaitingBehindA();
    // A node that pushes its objects without waiting is told they are not kept.
    String first = q.tb().reply().objects().keySet().iterator().next();
    assertThat(service.pushObject(PushObjectRequest.newBuilder()
        .setNode(Node.newBuilder().setNodeId(q.b())).setRunId(7).setObjectId(first)
        .setObjectContent(ByteString.copyFrom(q.tb().reply().objects().get(first))).build(),
        FleetService.Caller.ANONYMOUS).getStored()).isFalse();
  }

  @Test
  void pushMessages_secondCallWhileTheFirstWaits_isRefused() throws Exception {
    Queued q = bWaitingBehindA();
    assertThatThrownBy(() -> pushMessages(q.tb()).get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(FleetCallException.class)
        .hasMessageContaining("already pushing this reply");
    // The first call still waits and goes on once admitted.
    node(q.b()).expedite();
    assertThat(q.pushB().get(10, TimeUnit.SECONDS).getObjectsToPushCount()).isPositive();
  }

  @Test
  void pushMessages_messageGivenUpWhileWaiting_failsWithTheReason() throws Exception {
    Queued q = bWaitingBehindA();
    node(q.b()).abandon(q.fb(), "the round ended");
    assertThatThrownBy(() -> q.pushB().get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(FleetCallException.class)
        .hasMessageContaining("given up while the reply waited");
    assertThat(node(q.b()).awaitingAdmission()).isFalse();
  }

  @Test
  void request_smallInstruction_doesNotWaitForTheBudget() throws Exception {
    long a = HostileNodeTest.join(service);
    long b = HostileNodeTest.join(service);
    node(a).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
    // A holds the whole budget; B's instruction is small (an evaluate of a tiny model).
    CompletableFuture<ClientMessage> fb = node(b).request(ServerMessage.newBuilder()
        .setGetParametersIns(ServerMessage.GetParametersIns.getDefaultInstance()).build(),
        Optional.of(Duration.ofSeconds(30)));
    assertThat(node(b).awaitingAdmission()).isFalse();
    assertThat(fb).isNotDone();
  }

  @Test
  void httpPushMessages_headWaitingForAdmission_leavesBodyRoomToAdmittedObjects()
      throws Exception {
    long a = HostileNodeTest.join(service);
    long b = HostileNodeTest.join(service);
    CompletableFuture<ClientMessage> fa = node(a).request(largeFitIns(),
        Optional.of(Duration.ofSeconds(30)));
    node(b).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
    Trained ta = train(a, 2);
    Trained tb = train(b, 3);
    // The least body room there is: one largest body, all of it claimed by a body of no
    // declared length (chunked), as B's head is here.
    try (HttpFleet http = HttpFleet.start("127.0.0.1", 0, service, FleetLimits.defaults(),
        Optional.empty(), 1)) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      byte[] head = HostileNodeTest.push(b, tb.message(), tb.reply().tree()).toByteArray();
      CompletableFuture<HttpResponse<byte[]>> pushB = client.sendAsync(
          post(http, "push-messages", HttpRequest.BodyPublishers.ofInputStream(
              () -> new ByteArrayInputStream(head))),
          HttpResponse.BodyHandlers.ofByteArray());
      stillWaiting(pushB);

      // A was admitted first: its objects go through while B's head waits.
      for (String id : pushMessages(ta).get(10, TimeUnit.SECONDS).getObjectsToPushList()) {
        byte[] body = PushObjectRequest.newBuilder().setNode(Node.newBuilder().setNodeId(a))
            .setRunId(7).setObjectId(id)
            .setObjectContent(ByteString.copyFrom(ta.reply().objects().get(id))).build()
            .toByteArray();
        HttpResponse<byte[]> r = client.sendAsync(post(http, "push-object",
            HttpRequest.BodyPublishers.ofByteArray(body)),
            HttpResponse.BodyHandlers.ofByteArray()).get(10, TimeUnit.SECONDS);
        assertThat(r.statusCode()).as("push-object %s", id).isEqualTo(200);
      }
      assertThat(fa.get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(5);

      node(a).releaseAnswer();
      assertThat(pushB.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
  }

  private static HttpRequest post(HttpFleet http, String call, HttpRequest.BodyPublisher body) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
        + "/api/v0/fleet/" + call)).POST(body).build();
  }

  @Test
  void grpcPushMessages_manyRepliesWaitingForAdmission_holdNoPlatformThreads()
      throws Exception {
    try (InProcessFleet fleet = InProcessFleet.serve(service)) {
      ManagedChannel channel = fleet.channel();
      long first = HostileNodeTest.join(service);
      node(first).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
      // Every later reply waits: the first holds the whole budget.
      int waiting = 24;
      List<FleetRpc> rpcs = new ArrayList<>();
      List<Trained> trained = new ArrayList<>();
      for (int i = 0; i < waiting; i++) {
        KeyPair keys = NodeAuth.generate();
        FleetRpc rpc = new FleetRpc(ClientInterceptors.intercept(channel, new NodeAuth(keys)),
            30_000);
        ByteString pem = ByteString.copyFrom(NodeAuth.pem(keys));
        rpc.call(FleetRpc.REGISTER_NODE, RegisterNodeFleetRequest.newBuilder()
            .setPublicKey(pem).build());
        long id = rpc.call(FleetRpc.ACTIVATE_NODE, ActivateNodeRequest.newBuilder()
            .setPublicKey(pem).setHeartbeatInterval(30).build()).getNodeId();
        node(id).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
        rpcs.add(rpc);
        trained.add(train(id, 3));
      }
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      int before = threads.getThreadCount();
      List<Future<PushMessagesResponse>> pushes = new ArrayList<>();
      for (int i = 0; i < waiting; i++) {
        FleetRpc rpc = rpcs.get(i);
        Trained t = trained.get(i);
        pushes.add(calls.submit(() -> rpc.call(FleetRpc.PUSH_MESSAGES,
            HostileNodeTest.push(t.nodeId(), t.message(), t.reply().tree()))));
      }
      Thread.sleep(1_000);
      assertThat(pushes).noneMatch(Future::isDone);
      // gRPC's default executor would hold a platform thread for each waiting call.
      assertThat(threads.getThreadCount() - before).isLessThan(waiting / 2);

      for (Trained t : trained) {
        node(t.nodeId()).expedite();
      }
      for (Future<PushMessagesResponse> f : pushes) {
        assertThat(f.get(10, TimeUnit.SECONDS).getObjectsToPushCount()).isPositive();
      }
    }
  }

  /** A node registered over gRPC, sent a large instruction and trained, the budget held. */
  private record GrpcNode(FleetRpc rpc, Trained trained, CompletableFuture<ClientMessage> answer) {}

  private GrpcNode grpcNodeBehindTheBudget(ManagedChannel channel) throws Exception {
    holdBudget(inbound.capacity());
    KeyPair keys = NodeAuth.generate();
    FleetRpc rpc = new FleetRpc(ClientInterceptors.intercept(channel, new NodeAuth(keys)),
        30_000);
    ByteString pem = ByteString.copyFrom(NodeAuth.pem(keys));
    rpc.call(FleetRpc.REGISTER_NODE, RegisterNodeFleetRequest.newBuilder().setPublicKey(pem)
        .build());
    long id = rpc.call(FleetRpc.ACTIVATE_NODE, ActivateNodeRequest.newBuilder()
        .setPublicKey(pem).setHeartbeatInterval(30).build()).getNodeId();
    CompletableFuture<ClientMessage> answer = node(id).request(largeFitIns(),
        Optional.of(Duration.ofSeconds(30)));
    return new GrpcNode(rpc, train(id, 3), answer);
  }

  /** Pushes the node's reply head over gRPC in a context the caller may cancel. */
  private Future<PushMessagesResponse> grpcPush(GrpcNode n, Context.CancellableContext context) {
    Trained t = n.trained();
    return calls.submit(() -> context.call(() -> n.rpc().call(FleetRpc.PUSH_MESSAGES,
        HostileNodeTest.push(t.nodeId(), t.message(), t.reply().tree()))));
  }

  private static void awaitFalse(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (condition.getAsBoolean() && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(condition.getAsBoolean()).as(what).isFalse();
  }

  @Test
  void grpcPushMessages_cancelledWhileWaiting_nodeMayPushAgainAndGoesThroughOnceAdmitted()
      throws Exception {
    try (InProcessFleet fleet = InProcessFleet.serve(service)) {
      ManagedChannel channel = fleet.channel();
      GrpcNode n = grpcNodeBehindTheBudget(channel);
      long id = n.trained().nodeId();
      Context.CancellableContext first = Context.current().withCancellation();
      Future<PushMessagesResponse> cancelled = grpcPush(n, first);
      stillWaiting(cancelled);
      assertThat(node(id).replyWaiting()).isTrue();

      first.cancel(null);
      awaitFalse(() -> node(id).replyWaiting(), "the server still holds the cancelled call");
      // The reply still pends: pushed again, it waits (not refused as a second push of the
      // same reply) and goes through once admitted.
      Future<PushMessagesResponse> again = grpcPush(n, Context.current().withCancellation());
      stillWaiting(again);
      node(id).expedite();
      pushObjects(n.trained(), again.get(10, TimeUnit.SECONDS).getObjectsToPushList());
      assertThat(n.answer().get(10, TimeUnit.SECONDS).getFitRes().getNumExamples())
          .isEqualTo(5);
    }
  }

  @Test
  void grpcPushMessages_connectionDropsWhileWaiting_sweepTakesTheSilentNodeOffline()
      throws Exception {
    try (InProcessFleet fleet = InProcessFleet.serve(service)) {
      ManagedChannel channel = fleet.channel();
      GrpcNode n = grpcNodeBehindTheBudget(channel);
      long id = n.trained().nodeId();
      Future<PushMessagesResponse> push = grpcPush(n, Context.current().withCancellation());
      stillWaiting(push);
      // The node's process dies: its connection closes with the call in it.
      channel.shutdownNow();
      awaitFalse(() -> node(id).replyWaiting(), "the server still holds the dropped call");

      service.sweepAt(System.nanoTime() + Duration.ofHours(1).toNanos());
      assertThat(manager.all()).isEmpty();
      assertThat(n.answer()).isCompletedExceptionally();
    }
  }

  /** A Fleet service served over in-process gRPC, with a channel to it; closing stops both. */
  private record InProcessFleet(Server server, ManagedChannel channel) implements AutoCloseable {
    static InProcessFleet serve(FleetService service) throws java.io.IOException {
      String name = InProcessServerBuilder.generateName();
      InProcessServerBuilder b = InProcessServerBuilder.forName(name);
      GrpcFleet.serve(b, service);
      return new InProcessFleet(b.build().start(), InProcessChannelBuilder.forName(name).build());
    }

    @Override
    public void close() {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  /** Holds {@code permits} of the test's budget, as an earlier answer would. */
  private void holdBudget(int permits) {
    inbound.admit(new InboundBudget.Reader() {
      @Override
      public boolean startReading(int p) {
        return true;
      }

      @Override
      public boolean awaitingAdmission() {
        return false;
      }
    }, permits);
  }

  /** A node whose reply to a large instruction waits in PushMessages behind a full budget. */
  private record Held(long node, CompletableFuture<ClientMessage> answer, Trained trained,
      Future<PushMessagesResponse> push) {}

  private Held heldBehindAFullBudget() throws Exception {
    holdBudget(inbound.capacity());
    long b = HostileNodeTest.join(service);
    CompletableFuture<ClientMessage> fb = node(b).request(largeFitIns(),
        Optional.of(Duration.ofSeconds(30)));
    Trained tb = train(b, 3);
    Future<PushMessagesResponse> pushB = pushMessages(tb);
    stillWaiting(pushB);
    return new Held(b, fb, tb, pushB);
  }

  @Test
  void sweep_nodeHeldInPushMessages_staysOnlineAndPushesOnceAdmitted() throws Exception {
    Held h = heldBehindAFullBudget();

    // An hour later with no heartbeat: the server, not the node, is what it waits for.
    service.sweepAt(System.nanoTime() + Duration.ofHours(1).toNanos());
    assertThat(node(h.node()).replyWaiting()).isTrue();

    inbound.release(inbound.capacity());
    pushObjects(h.trained(), h.push().get(10, TimeUnit.SECONDS).getObjectsToPushList());
    assertThat(h.answer().get(10, TimeUnit.SECONDS).getFitRes().getNumExamples()).isEqualTo(5);
    // Once admitted, a node that stays silent goes offline as before.
    service.sweepAt(System.nanoTime() + Duration.ofHours(1).toNanos());
    assertThat(manager.all()).isEmpty();
  }

  @Test
  void sweep_silentNodeHeldUntilAdmitted_goesOfflineAtTheNextSweepAndGivesItsShareBack()
      throws Exception {
    // A dead HTTP node's held call: nothing tells the server, so the node keeps its place.
    Held h = heldBehindAFullBudget();
    service.sweepAt(System.nanoTime() + Duration.ofHours(1).toNanos());
    assertThat(manager.all()).hasSize(1);

    // Its turn comes: admitted, it is no longer held, and its hour of silence counts.
    inbound.release(inbound.capacity());
    h.push().get(10, TimeUnit.SECONDS);
    service.sweepAt(System.nanoTime() + Duration.ofHours(1).toNanos());
    assertThat(manager.all()).isEmpty();
    assertThat(h.answer()).isCompletedExceptionally();
    // Its share is back: the next node's large instruction is admitted at once.
    long c = HostileNodeTest.join(service);
    node(c).request(largeFitIns(), Optional.of(Duration.ofSeconds(30)));
    assertThat(node(c).awaitingAdmission()).isFalse();
  }

  @Test
  void javaSuperNode_replyHeldPastItsCallTimeout_isSentOnceAdmitted() throws Exception {
    FlowerApp app = FlowerApp.load(JavaNodes.project(dir, "plus-k", 1));
    FleetService served = new FleetService(manager, new FleetService.RunInfo(7, app.fabId(),
        app.version(), app.hash(), app.fab(), Map.of()), new MessageApi(SerializerRegistry
        .load()), FleetLimits.defaults(), timer, new Traffic(), inbound, Optional.empty());
    ServerBuilder<?> b = GrpcServers.netty("127.0.0.1", 0, Optional.empty());
    GrpcFleet.serve(b, served);
    Server server = b.build().start();
    holdBudget(inbound.capacity());
    try (SuperNode n = JavaNodes.node(server.getPort()).callTimeout(Duration.ofSeconds(1))
        .clientApp(PlusK.weighted(1).build()).build().start()) {
      JavaNodes.await(() -> manager.all().size(), 1, "the node online");
      FleetNode node = (FleetNode) manager.all().getFirst();
      CompletableFuture<ClientMessage> f = node.request(largeFitIns(),
          Optional.of(Duration.ofSeconds(30)));
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!node.replyWaiting() && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(node.replyWaiting()).as("the node's PushMessages waits").isTrue();
      // Past the node's 1 s call timeout: its PushMessages must still be open.
      Thread.sleep(2_500);

      inbound.release(inbound.capacity());
      ClientMessage answer = f.get(20, TimeUnit.SECONDS);
      assertThat(answer.getFitRes().getParameters().getTensorsCount()).isEqualTo(1);
    } finally {
      server.shutdownNow();
    }
  }
}
