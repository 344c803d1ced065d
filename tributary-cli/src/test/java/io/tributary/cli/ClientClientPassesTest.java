package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.training.TrainingClient;
import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
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

  /** Starts {@code count} clients, partition i the i-th, in turn. */
  private ClientPassProcesses clients(FlowerServer server, int count, List<String> more)
      throws Exception {
    return ClientPassProcesses.startInTurn(dir, "client", count, i -> {
      List<String> args = new ArrayList<>(List.of("--server", "127.0.0.1:" + server.port()));
      args.addAll(training(i));
      return args;
    }, more, () -> server.connectedClients().size());
  }

  @Test
  void client_dpFedAvgWithSecureSumOnAJoinServer_equalsTheSimulatedRunBitForBit()
      throws Exception {
    ServerConfig config = ClientPassProcesses.config(2, CLIENTS, init());
    Path user = ClientPassProcesses.userClasses(dir);
    try (FlowerServer server = FlowerServer.start(config,
        ClientPassProcesses.SECURE_AGGREGATION)) {
      clients(server, CLIENTS, List.of("--classpath", user.toString())).stopAfter(() -> {
        RunResult result = server.run();
        List<TrainingClient> trainers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
          trainers.add(trainer(i));
        }

        ClientPassProcesses.assertEqualsSimulatedRun(result, server.connectedClients(), trainers,
            init(), config, 2);
      });
    }
    assertThat(Files.readString(dir.resolve("client-0.log")))
        .contains("runs client passes (SecAgg+)");
  }

  @Test
  void client_noClientPasses_serverRefusesTheClientsByNameBeforeAnyTrains() throws Exception {
    ServerConfig config = ClientPassProcesses.config(1, 2, init());
    try (FlowerServer server = FlowerServer.start(config,
        ClientPassProcesses.SECURE_AGGREGATION)) {
      clients(server, 2, List.of("--no-client-passes")).stopAfter(() ->
          ClientPassProcesses.assertRefusesAll(server::connectedClients, server::run));
    }
    assertThat(Files.readString(dir.resolve("client-0.log")))
        .doesNotContain("runs client passes");
  }
}
