package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.DualLayoutClientApp;
import io.tributary.flower.app.LegacyClientApp;
import io.tributary.flower.app.mod.SecAggPlusMod;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flower's own {@code flower-secure-aggregation} example (its ServerApp with
 * {@code SecAggPlusWorkflow}, its ClientApp with {@code secaggplus_mod}, unchanged; a numpy
 * stand-in for its torch {@code task.py}) run with {@code flwr run} on a real Flower 1.27
 * SuperLink, with Java nodes serving {@link LegacyClientApp} plus {@link SecAggPlusMod}. The
 * example drops one node in every round; secure aggregation must complete and the dequantized
 * average must equal the model the surviving nodes sent back. The example's timeout is raised
 * from 15 s to 30 s (run config): each Python node starts a ClientApp process per message, which
 * took over 15 s on a loaded host.
 */
@Timeout(600)
class SecAggPlusFlowerExampleTest {
  @TempDir Path dir;

  /** The first values of the stand-in's first array: {@code linspace(-1, 1, 450)}. */
  private static final double[] FIRST = {-1.0, -1.0 + 2.0 / 449, -1.0 + 4.0 / 449};

  private static final String TASK = """
      \"\"\"A numpy stand-in for the example's torch task.py (Tributary's tests only).\"\"\"
      from unittest.mock import Mock

      import numpy as np

      SHAPES = [(6, 3, 5, 5), (6,), (16, 6, 5, 5), (16,), (120, 400), (120,), (84, 120),
                (84,), (10, 84), (10,)]


      class Net:
          def __init__(self):
              self.arrays = [np.linspace(-1, 1, int(np.prod(s)), dtype=np.float32).reshape(s)
                             for s in SHAPES]


      def make_net(seed=42):
          return Net()


      def get_weights(net):
          return [a.copy() for a in net.arrays]


      def set_weights(net, parameters):
          net.arrays = [np.asarray(p, dtype=np.float32).reshape(s)
                        for p, s in zip(parameters, SHAPES)]


      def load_data(partition_id, num_partitions, batch_size, is_demo):
          return Mock(dataset=[0]), Mock(dataset=[0])


      def train(net, trainloader, valloader, epochs, learning_rate, device):
          return {}


      def test(net, testloader, device):
          return 0.0, 0.0
      """;

  private static final String TORCH = """
      \"\"\"Stand-in for the two torch calls the example's client_app.py makes (tests only).\"\"\"


      class cuda:
          @staticmethod
          def is_available():
              return False


      def device(name):
          return name
      """;

  /** The example's app with the stand-ins, in the test's directory. */
  private Path exampleApp() throws Exception {
    Path src = PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/flower-secure-aggregation");
    Path app = Files.createDirectories(dir.resolve("secagg-app"));
    Files.createDirectories(app.resolve("secaggexample"));
    Files.copy(src.resolve("pyproject.toml"), app.resolve("pyproject.toml"));
    for (String f : List.of("__init__.py", "client_app.py", "server_app.py",
        "workflow_with_log.py")) {
      Files.copy(src.resolve("secaggexample").resolve(f), app.resolve("secaggexample").resolve(f));
    }
    Files.writeString(app.resolve("secaggexample/task.py"), TASK);
    Files.createDirectories(app.resolve("torch"));
    Files.writeString(app.resolve("torch/__init__.py"), TORCH);
    return app;
  }

  /**
   * The example's FlowerClient in Java: sends the model back, or drops (sleeps past the
   * timeout the test sets, 30 s) when told to.
   */
  private static ClientApp javaClientApp(boolean dualLayout) {
    FlowerClient client = new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        if (ins.config().get("drop") instanceof Scalar.Bool(boolean drop) && drop) {
          try {
            Thread.sleep(30_500);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return new FitRes(ins.parameters(), 1, Map.of());
      }
    };
    return dualLayout
        ? DualLayoutClientApp.of(client, List.of(), List.of(), new SecAggPlusMod())
        : LegacyClientApp.of(client).withMods(new SecAggPlusMod());
  }

  private SuperNode javaNode(FlowerDeployment d, int partition, boolean dualLayout,
      boolean http) {
    return SuperNode.builder(d.fleetAddress()).transport(http
            ? FleetTransport.http(FleetTransport.FLEET_REST_V0) : FleetTransport.grpcRere())
        .insecure(true).nodeConfig(Map.of("partition-id", (long) partition,
            "num-partitions", 5L))
        .clientApp(javaClientApp(dualLayout)).pollInterval(Duration.ofMillis(200)).build().start();
  }

  /**
   * Flower's App over {@code javaNodes} Java nodes and Python nodes for the rest of five; over
   * {@code http}, Flower 1.27's REST Fleet transport, which its own Python nodes cannot join, so
   * then every node is Java.
   */
  private void runExample(int javaNodes, boolean dualLayout, boolean http) throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path app = exampleApp();
    List<SuperNode> nodes = new ArrayList<>();
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      if (http) {
        d.superLinkArgs.addAll(List.of("--fleet-api-type", "rest"));
      }
      d.startSuperLink();
      try {
        for (int i = 0; i < 5; i++) {
          if (i < javaNodes) {
            nodes.add(javaNode(d, i, dualLayout, http));
          } else {
            d.startPythonSuperNode("python-supernode-" + i,
                "partition-id=" + i + " num-partitions=5");
          }
        }
        for (SuperNode n : nodes) {
          assertThat(n.awaitActive(Duration.ofSeconds(60))).isTrue();
        }
        String out = d.flwr(Duration.ofMinutes(6), "run", app.toString(), "test", "--stream",
            "--run-config", "num-server-rounds=2 timeout=30.0");
        assertThat(out).doesNotContain("Secure aggregation halted");
        assertThat(Pattern.compile("Secure aggregation completed").matcher(out).results()
            .count()).as(out).isEqualTo(2);
        assertThat(out).contains("dropped out.");
        Matcher m = Pattern.compile(
            "Weighted average of parameters \\(dequantized\\): \\[([^\\]]*)\\]").matcher(out);
        int seen = 0;
        while (m.find()) {
          String[] v = m.group(1).trim().split("\\s+");
          for (int i = 0; i < FIRST.length; i++) {
            assertThat(Double.parseDouble(v[i])).as(out).isCloseTo(FIRST[i], within(1e-4));
          }
          seen++;
        }
        assertThat(seen).as(out).isEqualTo(2);
      } finally {
        for (SuperNode n : nodes) {
          n.close();
        }
      }
    }
  }

  @Test
  void flwrRun_flowerSecAggExampleOverJavaNodesAlone_completesWithTheSurvivorsAverage()
      throws Exception {
    runExample(5, false, false);
  }

  /**
   * The CLI's built-in trainer serves both layouts ({@link DualLayoutClientApp} wearing
   * {@link SecAggPlusMod}): it must take part in the SecAgg+ App as the DefaultWorkflow app does,
   * here over HTTP (Flower 1.27's REST Fleet transport, the design of 1.40+'s default).
   */
  @Test
  void flwrRun_secAggExampleOverDualLayoutJavaNodesOverHttp_completesWithTheSurvivorsAverage()
      throws Exception {
    runExample(5, true, true);
  }

  @Test
  void flwrRun_flowerSecAggExampleOverJavaAndPythonNodes_completesWithTheSurvivorsAverage()
      throws Exception {
    runExample(3, false, false);
  }
}
