package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.fleet.FlowerDeployment;
import io.tributary.flower.fleet.FlowerPeer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary supernode}'s built-in trainer in a Flower App on Flower's DefaultWorkflow with
 * {@code SecAggPlusWorkflow}, on a real Flower 1.27 SuperLink: two CLI nodes, each in its own
 * JVM, without {@code --app}. The ServerApp gives FedAvg no initial model, so the workflow asks
 * a node's {@code get_parameters} for it; every fit round runs the four SecAgg+ stages through
 * the trainer's {@code SecAggPlusMod}, and the evaluate rounds use the DefaultWorkflow layout.
 * The run must finish both rounds with secure aggregation completed and the nodes' losses in
 * its history.
 */
@Timeout(420)
class SupernodeSecAggFlowerTest {
  @TempDir Path dir;

  private static final String PYPROJECT = """
      [build-system]
      requires = ["hatchling"]
      build-backend = "hatchling.build"

      [project]
      name = "secaggapp"
      version = "1.0.0"
      description = "Tributary's test app: DefaultWorkflow with SecAggPlusWorkflow"
      license = "Apache-2.0"
      dependencies = []

      [tool.hatch.build.targets.wheel]
      packages = ["."]

      [tool.flwr.app]
      publisher = "tributary"

      [tool.flwr.app.components]
      serverapp = "secaggapp.server_app:app"
      clientapp = "secaggapp.client_app:app"

      [tool.flwr.app.config]
      num-server-rounds = 2
      """;

  private static final String SERVER_APP = """
      \"\"\"DefaultWorkflow with SecAggPlusWorkflow over whatever nodes join (tests only).\"\"\"
      from flwr.common import Context
      from flwr.server import Grid, LegacyContext, ServerApp, ServerConfig
      from flwr.server.strategy import FedAvg
      from flwr.server.workflow import DefaultWorkflow, SecAggPlusWorkflow

      app = ServerApp()


      @app.main()
      def main(grid: Grid, context: Context) -> None:
          strategy = FedAvg(min_fit_clients=2, min_evaluate_clients=2, min_available_clients=2)
          legacy = LegacyContext(
              context=context,
              config=ServerConfig(num_rounds=int(context.run_config["num-server-rounds"])),
              strategy=strategy,
          )
          workflow = DefaultWorkflow(
              fit_workflow=SecAggPlusWorkflow(num_shares=1.0, reconstruction_threshold=1.0)
          )
          workflow(grid, legacy)
      """;

  private static final String CLIENT_APP = """
      \"\"\"The Python side's ClientApp; the Java nodes answer with their own trainer.\"\"\"
      from flwr.clientapp import ClientApp

      app = ClientApp()
      """;

  private Path app() throws IOException {
    Path app = Files.createDirectories(dir.resolve("secaggapp"));
    Path pkg = Files.createDirectories(app.resolve("secaggapp"));
    Files.writeString(app.resolve("pyproject.toml"), PYPROJECT);
    Files.writeString(pkg.resolve("__init__.py"), "");
    Files.writeString(pkg.resolve("server_app.py"), SERVER_APP);
    Files.writeString(pkg.resolve("client_app.py"), CLIENT_APP);
    return app;
  }

  /** {@code tributary supernode ARGS...} in a JVM of its own, output to {@code log}. */
  private static Process cli(Path log, List<String> args) throws IOException {
    return CliProcess.start(log, "512m", "supernode", args);
  }

  @Test
  void supernode_builtInTrainerInASecAggPlusDefaultWorkflowApp_completesEveryRound()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path app = app();
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      List<Process> nodes = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          nodes.add(cli(dir.resolve("cli-" + i + ".log"), List.of("--superlink",
              d.fleetAddress(), "--transport", "grpc-rere", "--insecure", "--model", "mclr",
              "--node-config", "partition-id=" + i + " num-partitions=2")));
        }
        String out = d.flwr(Duration.ofMinutes(5), "run", app.toString(), "test", "--stream");
        assertThat(out).doesNotContain("Secure aggregation halted");
        assertThat(Pattern.compile("Secure aggregation completed").matcher(out).results()
            .count()).as(out).isEqualTo(2);
        assertThat(out).as(out).contains("Received initial parameters from one random client");
        assertThat(out).as(out).contains("History (loss, distributed)");
        for (Process p : nodes) {
          assertThat(p.isAlive()).isTrue();
        }
      } finally {
        for (Process p : nodes) {
          p.destroy();
          assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
      }
    }
  }
}
