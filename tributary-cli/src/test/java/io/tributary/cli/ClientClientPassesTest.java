package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.SimulatedNodes;
import io.tributary.flower.passes.ComposedAlgorithms;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureSumRefusedException;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.training.TrainingClient;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
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
import picocli.CommandLine;

/**
 * {@code tributary client} against a Tributary Join server whose computation sums securely: by
 * default the command's clients, each a JVM of its own training its partition, run the server's
 * secure passes with SecAgg+ and the algorithm composed in code that their {@code --classpath}
 * registers, and the model equals the simulated run over the same trainers bit for bit; with
 * {@code --no-client-passes} the server refuses them by name before any trains.
 */
@Timeout(300)
class ClientClientPassesTest {
  private static final int CLIENTS = 4;

  @TempDir Path dir;

  /** The training options every client shares; each adds its --partition. */
  private static List<String> training(int partition) {
    return List.of("--dataset", "generated:4,3,80", "--model", "mclr", "--seed", "3",
        "--partition", partition + "/" + CLIENTS);
  }

  /** In this JVM, the trainer that {@code tributary client} builds from {@link #training}. */
  private static TrainingClient trainer(int partition) throws Exception {
    ClientCommand c = new ClientCommand();
    List<String> args = new ArrayList<>(List.of("--server", "127.0.0.1:1"));
    args.addAll(training(partition));
    new CommandLine(c).parseArgs(args.toArray(String[]::new));
    return c.training.prepare(() -> { }).client();
  }

  private static SequencedMap<String, Tensor> init() throws Exception {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    List<Tensor> params = trainer(0).getParameters(Map.of());
    for (int i = 0; i < params.size(); i++) {
      init.put("p" + i, params.get(i));
    }
    return init;
  }

  private static ServerConfig config(int rounds, int clients) throws Exception {
    return ServerConfig.builder().minSuccessFraction(0.5).address("127.0.0.1", 0).rounds(rounds)
        .minClients(clients).algorithm(DpSecureSumAlgorithms.algorithm())
        .roundTimeout(Duration.ofSeconds(60)).clientWait(Duration.ofSeconds(120)).seed(11)
        .initial(InitialParameters.given(init())).build();
  }

  /** A folder a user's jar stands for: it registers {@link DpSecureSumAlgorithms}. */
  private Path userClasses() throws IOException {
    Path services = Files.createDirectories(dir.resolve("user/META-INF/services"));
    Files.writeString(services.resolve(ComposedAlgorithms.class.getName()),
        DpSecureSumAlgorithms.class.getName() + "\n");
    return dir.resolve("user");
  }

  /**
   * Starts {@code count} clients, partition i the i-th, each after the one before has joined,
   * so that the server's order of its clients is theirs.
   */
  private List<Process> clients(FlowerServer server, int count, List<String> more)
      throws Exception {
    List<Process> clients = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<String> args = new ArrayList<>(List.of("--server", "127.0.0.1:" + server.port()));
      args.addAll(training(i));
      args.addAll(more);
      clients.add(CliProcess.start(dir.resolve("client-" + i + ".log"), "256m", "client",
          args));
      JavaNodes.await(() -> server.connectedClients().size(), i + 1, "clients");
    }
    return clients;
  }

  private static void stop(List<Process> clients) throws InterruptedException {
    for (Process p : clients) {
      p.destroy();
    }
    for (Process p : clients) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void client_dpFedAvgWithSecureSumOnAJoinServer_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = config(2, CLIENTS);
    // Four clients, each every other's neighbour; two of a client's three neighbours recover it.
    try (FlowerServer server = FlowerServer.start(config, new SecureAggregation(3, 2, 16, 1.0,
        20))) {
      List<Process> clients = clients(server, CLIENTS, List.of("--classpath",
          userClasses().toString()));
      try {
        RunResult result = server.run();
        List<String> ids = server.connectedClients();
        Map<String, Object> trainers = new LinkedHashMap<>();
        for (int i = 0; i < CLIENTS; i++) {
          trainers.put(ids.get(i), trainer(i));
        }

        assertThat(result.rounds()).hasSize(2).allSatisfy(r ->
            assertThat(r.failureReasons()).isEmpty());
        double[] got = SimulatedNodes.doubles(result.finalParameters().values().iterator()
            .next());
        assertThat(got).isEqualTo(SimulatedNodes.runClients(DpSecureSumAlgorithms.algorithm(),
            init(), trainers, Set.of(), config, 2, SecAggPlus.secureSummation(
                SecAggSettings.of(16, 9, 16, 3))));
        assertThat(got).isNotEqualTo(SimulatedNodes.doubles(init().firstEntry().getValue()));
      } finally {
        stop(clients);
      }
    }
    assertThat(Files.readString(dir.resolve("client-0.log")))
        .contains("runs client passes (SecAgg+)");
  }

  @Test
  void client_noClientPasses_serverRefusesTheClientsByNameBeforeAnyTrains() throws Exception {
    ServerConfig config = config(1, 2);
    try (FlowerServer server = FlowerServer.start(config, new SecureAggregation(3, 2, 16, 1.0,
        20))) {
      List<Process> clients = clients(server, 2, List.of("--no-client-passes"));
      try {
        List<String> ids = server.connectedClients();
        assertThatThrownBy(server::run).isInstanceOfSatisfying(SecureSumRefusedException.class,
            e -> assertThat(e.incapableNodes()).containsOnlyKeys(ids));
      } finally {
        stop(clients);
      }
    }
    assertThat(Files.readString(dir.resolve("client-0.log")))
        .doesNotContain("runs client passes");
  }
}
