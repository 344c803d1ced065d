package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.passes.NodeComputation;
import io.tributary.flower.passes.NodePasses;
import io.tributary.flower.testing.EchoFitClient;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Join server whose computation sums securely, with a Java Join client that runs client passes
 * beside a real Flower 1.27 NumPyClient on the legacy transport ({@code flwr.compat}'s
 * {@code start_client}, grpc-bidi): the server asks both, and refuses naming the Python client
 * alone, with its answer, before any client is asked to fit.
 */
@Timeout(300)
class JoinSecureSumFlowerClientTest {
  @TempDir Path dir;

  private static final String CLIENT = """
      import sys
      import numpy as np
      from flwr.client import NumPyClient
      from flwr.compat.client.app import start_client

      class PlusOne(NumPyClient):
          def get_parameters(self, config):
              return [np.array([0.5, -0.25, 1.0])]

          def fit(self, parameters, config):
              return [p + 1 for p in parameters], 1, {}

          def evaluate(self, parameters, config):
              return 0.5, 1, {}

      start_client(server_address=sys.argv[1], client=PlusOne().to_client(), insecure=True,
                   max_retries=3, max_wait_time=60)
      """;

  @Test
  void run_pythonFlowerClientBesideACapableJavaJoinClient_pythonClientNamedAlone()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FederatedAlgorithm algorithm = FederatedAlgorithm.fedAvg().withAggregator(
        new DpAggregator(DpMode.CLIENT, 0, 1.0, 2, Optional.empty(), 0,
            DpNoise.seededForExperimentsOnlyNotPrivate(1)).withSecureSum(16));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(1)
        .minClients(2).algorithm(algorithm).roundTimeout(Duration.ofSeconds(60))
        .clientWait(Duration.ofSeconds(90)).initial(InitialParameters.fromClient()).build();
    Path script = dir.resolve("numpy_client.py");
    Files.writeString(script, CLIENT);
    Path log = dir.resolve("py.log");
    EchoFitClient plain = new EchoFitClient(List.of(Tensor.ofDoubles(Shape.of(3),
        new double[] {0.5, -0.25, 1.0})), Map.of());
    NodePasses passes = NodePasses.of(NodeComputation.builder().algorithm(algorithm).build(),
        (values, replay, context) -> values);
    Process python = null;
    try (FlowerServer server = FlowerServer.start(config);
        FlowerClientRunner java = FlowerClientRunner.builder(passes.serve(plain))
            .target("127.0.0.1:" + server.port()).build()) {
      java.start();
      String javaId = await(server, 1).getFirst();
      python = flower.process(dir, log, script.toString(), "127.0.0.1:" + server.port());
      String pythonId = await(server, 2).stream().filter(id -> !id.equals(javaId)).findFirst()
          .orElseThrow();
      try {
        assertThatThrownBy(server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
            e -> {
              assertThat(e.nodesAsked()).isEqualTo(2);
              assertThat(e.incapableNodes()).containsOnlyKeys(pythonId);
              assertThat(e.incapableNodes().get(pythonId))
                  .isEqualTo("answered GET_PROPERTIES_NOT_IMPLEMENTED");
              assertThat(e.getMessage()).contains("1 of 2 connected nodes cannot run client "
                  + "passes (" + pythonId + ": answered GET_PROPERTIES_NOT_IMPLEMENTED)");
            });
      } catch (AssertionError a) {
        throw new AssertionError(a.getMessage() + "\n--- py:\n" + Files.readString(log), a);
      }
      assertThat(plain.fits()).isZero();
    } finally {
      if (python != null) {
        python.destroyForcibly().waitFor();
      }
    }
  }

  /** The server's connected clients once there are {@code n}. */
  private static List<String> await(FlowerServer server, int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline) {
      List<String> ids = server.connectedClients();
      if (ids.size() >= n) {
        return ids;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("fewer than " + n + " clients joined within 90 s");
  }
}
