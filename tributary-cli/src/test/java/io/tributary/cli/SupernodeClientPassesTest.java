package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetServer;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.SimulatedNodes;
import io.tributary.flower.passes.ComposedAlgorithms;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureSumRefusedException;
import io.tributary.flower.server.ServerConfig;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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

  private static ServerConfig config(int rounds, int nodes) {
    return ServerConfig.builder().minSuccessFraction(0.5).address("127.0.0.1", 0).rounds(rounds)
        .minClients(nodes).algorithm(DpSecureSumAlgorithms.algorithm())
        .roundTimeout(Duration.ofSeconds(60)).clientWait(Duration.ofSeconds(120)).seed(11)
        .initial(InitialParameters.given(init())).build();
  }

  private FleetApi fleet() throws Exception {
    // Four nodes, each every other's neighbour; two of a node's three neighbours recover it.
    return FleetApi.builder(FlowerApp.load(JavaNodes.project(dir, "plus-k")))
        .address("127.0.0.1", 0).transport(FleetTransport.GRPC_RERE).serveJoin(false)
        .securePasses(new SecureAggregation(3, 2, 16, 1.0, 20)).build();
  }

  /** A folder a user's jar stands for: it registers {@link DpSecureSumAlgorithms}. */
  private Path userClasses() throws IOException {
    Path services = Files.createDirectories(dir.resolve("user/META-INF/services"));
    Files.writeString(services.resolve(ComposedAlgorithms.class.getName()),
        DpSecureSumAlgorithms.class.getName() + "\n");
    return dir.resolve("user");
  }

  /** {@code tributary supernode ARGS...} in a JVM of its own, output to {@code log}. */
  private static Process cli(Path log, List<String> args) throws IOException {
    return CliProcess.start(log, "256m", "supernode", args);
  }

  /**
   * Starts one node a k of {@code ks}, each after the one before has registered, so that the
   * server's order of its clients is theirs.
   */
  private List<Process> nodes(FleetServer server, double[] ks, List<String> more)
      throws Exception {
    List<Process> nodes = new ArrayList<>();
    for (int i = 0; i < ks.length; i++) {
      List<String> args = new ArrayList<>(List.of("--superlink", "127.0.0.1:"
          + server.fleetPort(), "--transport", "grpc-rere", "--insecure", "--app",
          PlusKAppProvider.class.getName(), "--node-config", "k=" + ks[i]));
      args.addAll(more);
      nodes.add(cli(dir.resolve("node-" + i + ".log"), args));
      JavaNodes.await(() -> server.connectedClients().size(), i + 1, "nodes");
    }
    return nodes;
  }

  private static void stop(List<Process> nodes) throws InterruptedException {
    for (Process p : nodes) {
      p.destroy();
    }
    for (Process p : nodes) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void supernode_dpFedAvgWithSecureSumOnAFleetServer_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = config(2, KS.length);
    Path user = userClasses();
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<Process> nodes = nodes(server, KS, List.of("--classpath", user.toString()));
      try {
        RunResult result = server.run();
        List<String> ids = server.connectedClients();
        Map<String, ClientApp> apps = new LinkedHashMap<>();
        for (int i = 0; i < KS.length; i++) {
          apps.put(ids.get(i), PlusKAppProvider.app(KS[i]));
        }

        assertThat(result.rounds()).hasSize(2).allSatisfy(r ->
            assertThat(r.failureReasons()).isEmpty());
        double[] got = SimulatedNodes.doubles(result.finalParameters().get("w"));
        assertThat(got).isEqualTo(SimulatedNodes.run(DpSecureSumAlgorithms.algorithm(), init(),
            apps, Set.of(), config, 2, SecAggPlus.secureSummation(
                SecAggSettings.of(16, 9, 16, 3))));
        assertThat(got).isNotEqualTo(INIT);
      } finally {
        stop(nodes);
      }
    }
    assertThat(Files.readString(dir.resolve("node-0.log")))
        .contains("runs client passes (SecAgg+)");
  }

  @Test
  void supernode_noClientPasses_serverRefusesTheNodesByNameBeforeAnyTrains() throws Exception {
    ServerConfig config = config(1, 2);
    try (FleetServer server = FleetServer.start(config, fleet())) {
      List<Process> nodes = nodes(server, new double[] {0.1, 0.2},
          List.of("--no-client-passes"));
      try {
        List<String> ids = server.connectedClients();
        assertThatThrownBy(server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
            e -> assertThat(e.incapableNodes()).containsOnlyKeys(ids));
      } finally {
        stop(nodes);
      }
    }
    assertThat(Files.readString(dir.resolve("node-0.log")))
        .doesNotContain("runs client passes");
  }
}
