package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary supernode} against a Tributary Fleet server whose computation sums securely:
 * by default the command's nodes, each a JVM of its own, run the server's secure passes with
 * SecAgg+ and the algorithm composed in code that their {@code --classpath} registers, and the
 * model equals the simulated run bit for bit; with {@code --no-client-passes} the server refuses
 * them by name before any trains.
 */
@Timeout(300)
class SupernodeClientPassesTest {
  private static final double[] INIT = {0.5, -0.25, 1.0};
  private static final double[] KS = {0.1, -0.2, 0.3, 0.05};

  @TempDir Path dir;

  private static SequencedMap<String, Tensor> init() {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(INIT.length), INIT.clone()));
    return init;
  }

  private FleetApi fleet() throws Exception {
    return FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k")))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(false)
        .securePasses(ClientPassProcesses.SECURE_AGGREGATION).build();
  }

  /** Starts one node a k of {@code ks}, in turn. */
  private ClientPassProcesses nodes(FleetServer server, double[] ks, List<String> more)
      throws Exception {
    return ClientPassProcesses.startInTurn(dir, "supernode", ks.length, i -> List.of(
        "--superlink", "127.0.0.1:" + server.fleetPort(), "--transport", "grpc-rere",
        "--insecure", "--app", PlusKAppProvider.class.getName(), "--node-config", "k=" + ks[i]),
        more, () -> server.connectedClients().size());
  }

  @Test
  void supernode_dpFedAvgWithSecureSumOnAFleetServer_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = ClientPassProcesses.config(2, KS.length, init());
    Path user = ClientPassProcesses.userClasses(dir);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      nodes(server, KS, List.of("--classpath", user.toString())).stopAfter(() -> {
        RunResult result = server.run();

        ClientPassProcesses.assertEqualsSimulatedRun(result, server.connectedClients(),
            Arrays.stream(KS).mapToObj(PlusKAppProvider::app).toList(), init(), config, 2);
      });
    }
    assertThat(Files.readString(dir.resolve("supernode-0.log")))
        .contains("runs client passes (SecAgg+)");
  }

  @Test
  void supernode_noClientPasses_serverRefusesTheNodesByNameBeforeAnyTrains() throws Exception {
    ServerConfig config = ClientPassProcesses.config(1, 2, init());
    try (FleetServer server = FleetServer.start(config, fleet())) {
      nodes(server, new double[] {0.1, 0.2}, List.of("--no-client-passes")).stopAfter(() ->
          ClientPassProcesses.assertRefusesAll(server::connectedClients, server::run));
    }
    assertThat(Files.readString(dir.resolve("supernode-0.log")))
        .doesNotContain("runs client passes");
  }
}
