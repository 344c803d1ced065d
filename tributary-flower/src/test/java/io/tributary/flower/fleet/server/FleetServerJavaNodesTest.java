package io.tributary.flower.fleet.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.Message;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Java SuperNodes joining a {@link FleetServer} over grpc-rere and HTTP... grpc-rere only (the
 * Java node speaks gRPC): each round's model is the example-weighted mean of the nodes' replies.
 */
@Timeout(120)
class FleetServerJavaNodesTest {
  @TempDir Path dir;

  static ServerConfig config(int rounds, int minClients) {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    return ServerConfig.builder().address("127.0.0.1", 0).rounds(rounds).minClients(minClients)
        .roundTimeout(Duration.ofSeconds(30)).clientWait(Duration.ofSeconds(30))
        .initial(InitialParameters.given(init)).build();
  }

  /** The same two rounds over each transport, the server and the nodes speaking it. */
  @ParameterizedTest
  @EnumSource(FleetTransport.class)
  void run_twoJavaSuperNodes_eachRoundIsTheWeightedMeanOfTheirReplies(FleetTransport transport)
      throws Exception {
    io.tributary.flower.fleet.FleetTransport nodes = transport == FleetTransport.HTTP
        ? io.tributary.flower.fleet.FleetTransport.http()
        : io.tributary.flower.fleet.FleetTransport.grpcRere();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k", 2))).address("127.0.0.1", 0)
        .transport(transport).serveJoin(false).build();
    try (FleetServer server = FleetServer.start(config(2, 2), fleet);
        SuperNode a = JavaNodes.node(server.fleetPort()).transport(nodes).clientApp(PlusK.weighted(1).build())
            .build().start();
        SuperNode b = JavaNodes.node(server.fleetPort()).transport(nodes).clientApp(PlusK.weighted(3).build())
            .build().start()) {
      RunResult r = server.run();
      // Each round: w + (1*1 + 3*3) / 4 = w + 2.5; two rounds: w + 5.
      Tensor w = r.finalParameters().get("w");
      assertThat(w.getAsDouble(0)).isCloseTo(6, within(1e-9));
      assertThat(w.getAsDouble(2)).isCloseTo(8, within(1e-9));
      assertThat(r.rounds()).hasSize(2);
      assertThat(r.rounds().get(1).failureReasons()).isEmpty();
      assertThat(r.rounds().get(1).clients()).isEqualTo(2);
      assertThat(server.connectedClients()).hasSize(2)
          .allMatch(id -> id.startsWith("node-"));
    }
  }

  /** fractionEvaluate 0: no federated evaluation, as Flower's FedAvg(fraction_evaluate=0.0). */
  @org.junit.jupiter.api.Test
  void run_fractionEvaluateZero_nodesAreSentTrainMessagesOnly() throws Exception {
    java.util.concurrent.atomic.AtomicInteger evaluated =
        new java.util.concurrent.atomic.AtomicInteger();
    ClientApp plusOne = PlusK.weighted(1).build();
    ClientApp app = ClientApp.builder().train(plusOne::handle)
        .evaluate((Message m, io.tributary.flower.app.Context c) -> {
          evaluated.incrementAndGet();
          return plusOne.handle(m, c);
        }).build();
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(2).minClients(1)
        .fractionEvaluate(0).roundTimeout(Duration.ofSeconds(30))
        .clientWait(Duration.ofSeconds(30)).initial(InitialParameters.given(init)).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k", 2))).address("127.0.0.1", 0)
        .transport(FleetTransport.GRPC_RERE).serveJoin(false).build();
    try (FleetServer server = FleetServer.start(config, fleet);
        SuperNode a = JavaNodes.start(server.fleetPort(), app)) {
      RunResult r = server.run();
      assertThat(r.finalParameters().get("w").getAsDouble(0)).isCloseTo(3, within(1e-9));
      assertThat(r.rounds()).hasSize(2).allSatisfy(m -> {
        assertThat(m.evalLoss()).isNaN();
        assertThat(m.failureReasons()).isEmpty();
      });
      // The node counts a reply once its last push returns, which may be after the round ended.
      long until = System.nanoTime() + 5_000_000_000L;
      while (a.repliesSent() < 2 && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(a.repliesSent()).isEqualTo(2);
      assertThat(evaluated).hasValue(0);
    }
  }
}
