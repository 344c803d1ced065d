package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.PlusJoinClient;
import io.tributary.flower.fleet.server.PythonSuperNodes;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Flower 1.27 {@code flower-supernode} running Flower's quickstart-numpy ClientApp
 * unchanged joins a relay over the Fleet API (grpc-rere), beside a Java Join client; the relay
 * reports their edge to the server over Netty. The ClientApp replies with the model plus {@code
 * np.random.rand(3)} and 1 example, its numpy seeded ({@link PythonSuperNodes}), so the edge's
 * weighted mean can be checked.
 */
@Timeout(300)
class PythonSuperNodeRelayInteropTest {
  private static final double[] INIT = {1, 2, 3};

  @TempDir Path dir;

  @Test
  void run_pythonSuperNodeAndJoinClientBehindARelay_theServerGetsTheirEdgesMean()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), INIT));
    ServerConfig serverConfig = ServerConfig.builder().address("127.0.0.1", 0).rounds(1)
        .minClients(1).roundTimeout(Duration.ofSeconds(120))
        .clientWait(Duration.ofSeconds(120)).initial(InitialParameters.given(init)).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FlowerServer server = FlowerServer.start(serverConfig)) {
      double[] u = nodes.rand(11, 3);
      RelayConfig config = RelayConfig.builder().address("127.0.0.1", 0)
          .upstream("127.0.0.1:" + server.port()).minClients(2)
          .clientWait(Duration.ofSeconds(120)).roundTimeout(Duration.ofSeconds(120))
          .shutdownGrace(Duration.ofSeconds(1))
          .fleet(FleetApi.builder(FlowerApp.load(PythonSuperNodes.quickstartNumpy()))
              .address("127.0.0.1", 0)
              .build())
          .build();
      try (Relay relay = Relay.start(config)) {
        nodes.start("py", "127.0.0.1:" + relay.fleetPort().orElseThrow(), 11);
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", relay.port())
            .usePlaintext().build();
        try (FlowerClientRunner legacy = FlowerClientRunner.builder(new PlusJoinClient(2, 2))
            .channel(channel).build()) {
          CompletableFuture<FlowerClientRunner.Outcome> unused = legacy.start();
          CompletableFuture<FlowerClientRunner.Outcome> relayRun = CompletableFuture
              .supplyAsync(() -> {
                try {
                  return relay.run();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
          RunResult r;
          try {
            r = server.run();
          } catch (RuntimeException | io.tributary.flower.server.FlowerServerException e) {
            throw new AssertionError(e + "\n--- py:\n" + nodes.tail("py"), e);
          }
          assertThat(relay.connectedClients()).anySatisfy(id -> assertThat(id)
              .startsWith("node-"));
          assertThat(r.rounds().getFirst().failureReasons()).isEmpty();
          assertThat(r.rounds().getFirst().clients()).isEqualTo(1);
          assertThat(r.rounds().getFirst().examples()).isEqualTo(3);
          // The edge's mean update: (u * 1 + 2 * 2) / 3 over the node and the Join client.
          Tensor w = r.finalParameters().get("w");
          for (int i = 0; i < 3; i++) {
            assertThat(w.getAsDouble(i)).as("w[%d]", i)
                .isCloseTo(INIT[i] + (u[i] + 4) / 3.0, within(1e-9));
          }
          relayRun.cancel(true);
        } finally {
          channel.shutdownNow();
        }
      }
    }
  }
}
