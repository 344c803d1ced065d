package io.tributary.flower.fleet.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.Message;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.SecureSumRefusedException;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Fleet server refuses {@code DpAggregator.withSecureSum}'s round computation before any node
 * is sent a train message: its SuperNodes' ClientApps cannot run the steps before the secure sum.
 */
@Timeout(120)
class FleetServerSecureSumRefusalTest {
  @TempDir Path dir;

  @Test
  void run_dpAggregatorWithSecureSum_refusedBeforeAnyNodeTrains() throws Exception {
    AtomicInteger trained = new AtomicInteger();
    ClientApp plusOne = PlusK.weighted(1).build();
    ClientApp app = ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      trained.incrementAndGet();
      return plusOne.handle(m, c);
    }).evaluate(plusOne::handle).build();
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1)).withSecureSum(16);
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(1).minClients(2)
        .algorithm(FederatedAlgorithm.fedAvg().withAggregator(dp))
        .roundTimeout(Duration.ofSeconds(30)).clientWait(Duration.ofSeconds(30))
        .initial(InitialParameters.given(init)).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k", 2)))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(false).build();
    try (FleetServer server = FleetServer.start(config, fleet);
        SuperNode a = node(server, app);
        SuperNode b = node(server, app)) {
      assertThatThrownBy(server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
          e -> assertThat(e.intrinsics()).containsExactly("federated_secure_sum_bitwidth"));
      assertThat(trained).hasValue(0);
    }
  }

  /**
   * A node that rebuilds the server's computation states that it runs client passes; one that
   * does not is named. The run is still refused: the pieces the server lacks are named too.
   */
  @Test
  void run_oneNodeRunsClientPasses_refusalNamesOnlyTheOtherAndTheMissingPieces()
      throws Exception {
    AtomicInteger trained = new AtomicInteger();
    ClientApp plusOne = PlusK.weighted(1).build();
    ClientApp app = ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      trained.incrementAndGet();
      return plusOne.handle(m, c);
    }).evaluate(plusOne::handle).build();
    ClientApp passes = io.tributary.flower.passes.NodeComputation.builder().build()
        .advertisedBy(app);
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1)).withSecureSum(16);
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(1).minClients(2)
        .algorithm(FederatedAlgorithm.fedAvg().withAggregator(dp))
        .roundTimeout(Duration.ofSeconds(30)).clientWait(Duration.ofSeconds(30))
        .initial(InitialParameters.fromClient()).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k", 2)))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(false).build();
    ClientApp withParameters = ClientApp.builder().train(passes::handle)
        .evaluate(passes::handle).query((m, c) -> m.reply(io.tributary.flower.records.RecordDict
            .of("arrays", io.tributary.flower.records.ArrayRecord.fromTensors(init))))
        .build();
    try (FleetServer server = FleetServer.start(config, fleet);
        SuperNode capable = node(server, io.tributary.flower.passes.NodeComputation.builder()
            .build().advertisedBy(withParameters));
        SuperNode plain = node(server, app)) {
      assertThatThrownBy(server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
          e -> {
            assertThat(e.nodesAsked()).isEqualTo(2);
            assertThat(e.incapableNodes()).containsOnlyKeys(
                "node-" + Long.toUnsignedString(plain.nodeId()));
            assertThat(e.incapableNodes().values().iterator().next())
                .contains("no handler for message type 'query'");
            assertThat(e.missingPieces()).doesNotContain(
                io.tributary.flower.server.SecureSumPiece.NODE_COMPUTATION)
                .contains(io.tributary.flower.server.SecureSumPiece.FLEET_PROTOCOL);
            assertThat(e.getMessage()).contains("1 of 2 connected nodes cannot run client "
                + "passes (node-" + Long.toUnsignedString(plain.nodeId()));
          });
      assertThat(trained).hasValue(0);
    }
  }

  /**
   * A real Flower 1.27 {@code flower-supernode} running Flower's quickstart-numpy ClientApp
   * reads as a node that cannot run client passes (its app has no query handler, so it answers
   * the capability query with an error), beside a Java node that states it can.
   */
  @Test
  @Timeout(300)
  void run_pythonSuperNodeBesideACapableJavaNode_pythonNodeNamedAsUnableToRunPasses()
      throws Exception {
    io.tributary.flower.fleet.FlowerPeer flower = io.tributary.flower.fleet.FlowerPeer.require();
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), new double[] {1, 2, 3}));
    ClientApp plusOne = PlusK.weighted(1).build();
    ClientApp javaApp = io.tributary.flower.passes.NodeComputation.builder().build()
        .advertisedBy(ClientApp.builder().train(plusOne::handle).evaluate(plusOne::handle)
            .query((m, c) -> m.reply(io.tributary.flower.records.RecordDict.of("arrays",
                io.tributary.flower.records.ArrayRecord.fromTensors(init)))).build());
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1)).withSecureSum(16);
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(1).minClients(2)
        .algorithm(FederatedAlgorithm.fedAvg().withAggregator(dp))
        .roundTimeout(Duration.ofSeconds(120)).clientWait(Duration.ofSeconds(90))
        .initial(InitialParameters.fromClient()).build();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(PythonSuperNodes.quickstartNumpy()))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(false).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config, fleet);
        SuperNode java = node(server, javaApp)) {
      nodes.start("py", "127.0.0.1:" + server.fleetPort(), 1);
      String javaId = "node-" + Long.toUnsignedString(java.nodeId());
      try {
        assertThatThrownBy(server::run).isInstanceOfSatisfying(
            SecureSumRefusedException.class, e -> {
              assertThat(e.nodesAsked()).isEqualTo(2);
              assertThat(e.incapableNodes()).hasSize(1).doesNotContainKey(javaId);
              assertThat(e.incapableNodes().values().iterator().next())
                  .contains("the ClientApp replied with error");
            });
      } catch (AssertionError a) {
        throw new AssertionError(a.getMessage() + "\n--- py:\n" + nodes.tail("py"), a);
      }
    }
  }

  private static SuperNode node(FleetServer server, ClientApp app) throws Exception {
    return JavaNodes.start(server.fleetPort(), app);
  }
}
