package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.Scalar;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.PythonSuperNodes;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  private static Path quickstart() {
    Path p = PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/quickstart-numpy");
    if (!Files.isDirectory(p)) {
      return PythonEnv.unavailable("Flower's quickstart-numpy not found at " + p);
    }
    return p;
  }

  /** Adds 2 to every parameter and claims 2 examples. */
  private static final class PlusTwo extends AbstractFlowerClient {
    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of();
    }

    @Override
    public FitRes fit(FitIns ins) {
      Tensor t = ins.parameters().get(0);
      double[] v = new double[(int) t.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getAsDouble(i) + 2;
      }
      return new FitRes(List.of(Tensor.ofDoubles(t.shape(), v)), 2, Map.of());
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 2, Map.of());
    }
  }

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
      double[] u = rand(flower, 11);
      RelayConfig config = RelayConfig.builder().address("127.0.0.1", 0)
          .upstream("127.0.0.1:" + server.port()).minClients(2)
          .clientWait(Duration.ofSeconds(120)).roundTimeout(Duration.ofSeconds(120))
          .shutdownGrace(Duration.ofSeconds(1))
          .fleet(FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
              .build())
          .build();
      try (Relay relay = Relay.start(config)) {
        nodes.start("py", "127.0.0.1:" + relay.fleetPort().orElseThrow(), 11);
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", relay.port())
            .usePlaintext().build();
        try (FlowerClientRunner legacy = FlowerClientRunner.builder(new PlusTwo())
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

  /** What {@code np.random.seed(seed); np.random.rand(3)} draws. */
  private double[] rand(FlowerPeer flower, long seed) throws Exception {
    String out = flower.run(dir, Duration.ofSeconds(60), "-c",
        "import numpy as np; np.random.seed(" + seed + "); print(','.join(repr(float(x)) for x in "
        + "np.random.rand(3)))").strip();
    String[] f = out.lines().reduce((a, b) -> b).orElseThrow().split(",");
    return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]),
        Double.parseDouble(f[2])};
  }
}
