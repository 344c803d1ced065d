package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.LegacyClientApp;
import io.tributary.flower.app.mod.FixedClippingMod;
import io.tributary.flower.app.mod.SecAggPlusMod;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flower's own {@code fl-dp-sa} example (central differential privacy with client-side fixed
 * clipping, {@code DifferentialPrivacyClientSideFixedClipping} over FedAvg, fitted through
 * {@code SecAggPlusWorkflow} in a {@code DefaultWorkflow}; its ClientApp wears
 * {@code secaggplus_mod} and {@code fixedclipping_mod}) run unchanged with {@code flwr run} on a
 * real Flower 1.27 SuperLink, with Java nodes serving {@link LegacyClientApp} wearing
 * {@link SecAggPlusMod} and {@link FixedClippingMod} in the example's order. Only its torch
 * {@code task.py} is replaced, in a temporary copy, by a numpy stand-in whose "training" adds 1
 * to every parameter, as the Java nodes do. The example's SecAgg+ settings (7 shares, 4 to
 * reconstruct) assume the 20 sampled clients of its simulation; with the 4 nodes here every
 * round halts ("Insufficient available nodes"), so the run overrides them (4 shares, 3 to
 * reconstruct) as a user of 4 nodes would; the DP settings stay the example's.
 *
 * <p>What the result shows: every update (norm {@code sqrt(61610)}, about 248) is clipped to the
 * example's clipping norm 10, so each round moves the mean parameter by
 * {@code 10 / sqrt(61610)}, not by 1; and the server adds Gaussian noise of standard deviation
 * {@code noise-multiplier * clipping-norm / num-sampled-clients} = 0.1 per round. A Java node
 * sees the model of round r as the initial one plus (r - 1) steps plus noise.
 */
@Timeout(600)
class DpSecAggFlowerExampleTest {
  @TempDir Path dir;

  /** The example's Net's parameter shapes (conv1 3x3 on one channel ... fc3), in order. */
  private static final int[][] SHAPES = {{6, 1, 3, 3}, {6}, {16, 6, 5, 5}, {16}, {120, 400},
      {120}, {84, 120}, {84}, {10, 84}, {10}};
  private static final int PARAMS = 61_610;
  private static final double STEP = 10.0 / Math.sqrt(PARAMS);
  private static final double NOISE = 0.2 * 10 / 20;

  private static final String TASK = """
      \"\"\"A numpy stand-in for the example's torch task.py (Tributary's tests only).\"\"\"
      from unittest.mock import Mock

      import numpy as np

      SHAPES = [(6, 1, 3, 3), (6,), (16, 6, 5, 5), (16,), (120, 400), (120,), (84, 120),
                (84,), (10, 84), (10,)]


      class Net:
          def __init__(self):
              self.arrays = [np.linspace(-1, 1, int(np.prod(s)), dtype=np.float32).reshape(s)
                             for s in SHAPES]


      def load_data(partition_id, num_partitions):
          return Mock(dataset=[0]), Mock(dataset=[0])


      def train(net, trainloader, valloader, epochs, device):
          net.arrays = [a + np.float32(1) for a in net.arrays]
          return {"train_loss": 1.0, "train_accuracy": 0.5, "val_loss": 1.0,
                  "val_accuracy": 0.5}


      def test(net, testloader, device):
          return 1.0, 0.5


      def get_weights(net):
          return [a.copy() for a in net.arrays]


      def set_weights(net, parameters):
          net.arrays = [np.asarray(p, dtype=np.float32).reshape(s)
                        for p, s in zip(parameters, SHAPES)]
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

  /** Every model a Java node was sent, minus the initial model: (mean, standard deviation). */
  private final List<double[]> moves = new CopyOnWriteArrayList<>();

  /** The example's app with the stand-ins, in the test's directory. */
  private Path exampleApp() throws Exception {
    Path src = PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/fl-dp-sa");
    Path app = Files.createDirectories(dir.resolve("fl-dp-sa"));
    Files.createDirectories(app.resolve("fl_dp_sa"));
    Files.copy(src.resolve("pyproject.toml"), app.resolve("pyproject.toml"));
    for (String f : List.of("__init__.py", "client_app.py", "server_app.py")) {
      Files.copy(src.resolve("fl_dp_sa").resolve(f), app.resolve("fl_dp_sa").resolve(f));
    }
    Files.writeString(app.resolve("fl_dp_sa/task.py"), TASK);
    Files.createDirectories(app.resolve("torch"));
    Files.writeString(app.resolve("torch/__init__.py"), TORCH);
    return app;
  }

  /** numpy's {@code linspace(-1, 1, n)}, element i. */
  private static double linspace(long i, long n) {
    return -1.0 + 2.0 * i / (n - 1);
  }

  /** The example's FlowerClient in Java: records what it was sent, adds 1 to every parameter. */
  private ClientApp javaClientApp() {
    FlowerClient client = new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        List<Tensor> out = new ArrayList<>();
        double sum = 0;
        double sumSq = 0;
        long n = 0;
        for (Tensor t : ins.parameters()) {
          TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, t.shape());
          for (long i = 0; i < t.size(); i++) {
            double d = t.getAsDouble(i) - linspace(i, t.size());
            sum += d;
            sumSq += d * d;
            n++;
            b.setFloat(i, (float) (t.getAsDouble(i) + 1));
          }
          out.add(b.build());
        }
        double mean = sum / n;
        moves.add(new double[] {mean, Math.sqrt(sumSq / n - mean * mean), n});
        return new FitRes(out, 1, Map.of("train_loss", Scalar.of(1.0),
            "train_accuracy", Scalar.of(0.5), "val_loss", Scalar.of(1.0),
            "val_accuracy", Scalar.of(0.5)));
      }
    };
    return LegacyClientApp.of(client).withMods(new SecAggPlusMod(), new FixedClippingMod());
  }

  private SuperNode javaNode(FlowerDeployment d, int partition, int nodes) {
    return SuperNode.builder(d.fleetAddress()).transport(FleetTransport.grpcRere())
        .insecure(true).nodeConfig(Map.of("partition-id", (long) partition,
            "num-partitions", (long) nodes))
        .clientApp(javaClientApp()).pollInterval(Duration.ofMillis(200)).build().start();
  }

  /** Runs the example over 4 nodes (its FedAvg samples at least 4), the first javaNodes Java. */
  private void runExample(int javaNodes) throws Exception {
    int nodes = 4;
    FlowerPeer flower = FlowerPeer.require();
    Path app = exampleApp();
    List<SuperNode> started = new ArrayList<>();
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      try {
        for (int i = 0; i < nodes; i++) {
          if (i < javaNodes) {
            started.add(javaNode(d, i, nodes));
          } else {
            d.startPythonSuperNode("python-supernode-" + i,
                "partition-id=" + i + " num-partitions=" + nodes);
          }
        }
        for (SuperNode n : started) {
          assertThat(n.awaitActive(Duration.ofSeconds(60))).isTrue();
        }
        String out = d.flwr(Duration.ofMinutes(8), "run", app.toString(), "test", "--stream",
            "--run-config", "num-shares=4 reconstruction-threshold=3");
        assertThat(out).doesNotContain("Secure aggregation halted");
        assertThat(Pattern.compile("central DP noise with 0\\.1000 stdev added").matcher(out)
            .results().count()).as(out).isEqualTo(3);
      } finally {
        for (SuperNode n : started) {
          n.close();
        }
      }
    }
    // Each Java node trains in every round (4 nodes, 4 sampled); rounds 2 and 3 show the moves.
    assertThat(moves).hasSize(3 * javaNodes);
    int later = 0;
    for (double[] m : moves) {
      assertThat((long) m[2]).isEqualTo(PARAMS);
      long steps = Math.round(m[0] / STEP);
      if (steps == 0 && m[1] < 1e-3) {
        continue; // round 1: the initial model itself
      }
      later++;
      assertThat(steps).as("rounds moved, mean %s", m[0]).isBetween(1L, 2L);
      assertThat(m[0]).isCloseTo(steps * STEP, within(0.1 * STEP));
      assertThat(m[1]).as("noise").isCloseTo(NOISE * Math.sqrt(steps), within(0.02));
    }
    assertThat(later).isEqualTo(2 * javaNodes);
  }

  @Test
  void flwrRun_flowerDpSecAggExampleOverJavaNodesAlone_clipsAndNoisesEveryRound()
      throws Exception {
    runExample(4);
  }

  @Test
  void flwrRun_flowerDpSecAggExampleOverJavaAndPythonNodes_clipsAndNoisesEveryRound()
      throws Exception {
    runExample(2);
  }
}
