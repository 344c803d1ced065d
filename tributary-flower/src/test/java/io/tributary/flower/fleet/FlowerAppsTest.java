package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.MetricKey;
import io.tributary.flower.app.TrainingClientApp;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flower 1.27's own apps and Message-API strategies, run with {@code flwr run} on a real
 * SuperLink, with Java SuperNodes alone, mixed with Python {@code flower-supernode}s over
 * grpc-rere (Flower 1.27's own REST SuperNode cannot join its REST SuperLink), and over HTTP to
 * the REST transport: quickstart-numpy unchanged, and FedAdam and QFedAvg, which hand float64
 * arrays back from round 2. A mixed run must end exactly where the Java-only run ends, since
 * the Java test app is the Python one's twin.
 */
@Timeout(600)
class FlowerAppsTest {
  @TempDir Path dir;

  private static SuperNode grpcNode(FlowerDeployment d, ClientApp app, long k) {
    return SuperNode.builder(d.fleetAddress()).transport(FleetTransport.grpcRere())
        .insecure(true).nodeConfig(Map.of("k", k)).clientApp(app)
        .pollInterval(Duration.ofMillis(300)).build().start();
  }

  private static SuperNode restNode(FlowerDeployment d, ClientApp app, long k) {
    return SuperNode.builder(d.fleetAddress())
        .transport(FleetTransport.http(FleetTransport.FLEET_REST_V0)).insecure(true)
        .nodeConfig(Map.of("k", k)).clientApp(app).pollInterval(Duration.ofMillis(300))
        .build().start();
  }

  /** {@code flwr run} of the test app with {@code strategy}; the ServerApp's result lines. */
  private static List<String> run(FlowerDeployment d, String strategy, Path out)
      throws Exception {
    d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"", "strategy=\"" + strategy + "\"");
    d.await(out, Duration.ofMinutes(3));
    return Files.readAllLines(out);
  }

  /** The id of the run {@code flwr run} started last. */
  private static String lastRunId(String flwrRunLog) {
    String marker = "Successfully started run ";
    int at = flwrRunLog.lastIndexOf(marker);
    assertThat(at).as(flwrRunLog).isNotNegative();
    return flwrRunLog.substring(at + marker.length()).split("\\s", 2)[0];
  }

  /** Polls {@code flwr ls --run-id} until the run has finished; its status. */
  private static String awaitFinished(FlowerDeployment d, String runId) throws Exception {
    long end = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    String status = "";
    while (System.nanoTime() < end) {
      String out = d.flwr(Duration.ofMinutes(1), "ls", "test", "--run-id", runId, "--format",
          "json");
      int at = out.lastIndexOf("\"run-id\": \"" + runId + "\"");
      int s = at < 0 ? -1 : out.indexOf("\"status\": \"", at);
      if (s >= 0) {
        status = out.substring(s + 11, out.indexOf('"', s + 11));
        if (status.startsWith("finished")) {
          return status;
        }
      }
      Thread.sleep(2000);
    }
    return status;
  }

  @Test
  void flwrRun_fedAdamAndQFedAvg_javaAloneMixedWithPythonAndOverRestAgree() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    List<String> strategies = List.of("fedadam", "qfedavg");
    Map<String, List<String>> javaOnly = new LinkedHashMap<>();
    PlusKApp app = new PlusKApp();
    try (FlowerDeployment d = new FlowerDeployment(flower, dir.resolve("grpc"))) {
      d.startSuperLink();
      SuperNode b = grpcNode(d, app.app(), 3);
      try {
        try (SuperNode a = grpcNode(d, app.app(), 1)) {
          assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
          assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
          for (String s : strategies) {
            javaOnly.put(s, run(d, s, d.dir.resolve("java-" + s + ".txt")));
          }
        }
        // both Java nodes in all 3 rounds of both runs; from round 2 FedAdam's model is float64
        assertThat(app.reports).hasSize(12);
        assertThat(app.reports.subList(0, 6).stream().filter(r -> !r.round().equals("1")))
            .allSatisfy(r -> assertThat(r.arrays().get("w").dtype()).isEqualTo(DType.FLOAT64));
        Process python = d.startPythonSuperNode("python-supernode", 1);
        for (String s : strategies) {
          List<String> mixed = run(d, s, d.dir.resolve("mixed-" + s + ".txt"));
          assertThat(mixed).as(s).isEqualTo(javaOnly.get(s));
        }
        assertThat(app.reports).hasSize(18);
        python.destroy();
      } finally {
        b.close();
      }
    }
    try (FlowerDeployment d = new FlowerDeployment(flower, dir.resolve("rest"))) {
      d.superLinkArgs.addAll(List.of("--fleet-api-type", "rest"));
      d.startSuperLink();
      try (SuperNode a = restNode(d, app.app(), 1); SuperNode b = restNode(d, app.app(), 3)) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        for (String s : strategies) {
          assertThat(run(d, s, d.dir.resolve("rest-" + s + ".txt"))).as(s)
              .isEqualTo(javaOnly.get(s));
        }
      }
    }
    for (List<String> r : javaOnly.values()) {
      assertThat(r).contains("TRAIN_ROUNDS 1,2,3", "EVALUATE_ROUNDS 1,2,3");
    }
  }

  /**
   * A client for quickstart-numpy's model: adds 1 to every parameter, as the example's
   * ClientApp adds noise in [0, 1); reports a loss and an accuracy.
   */
  static final class AddOneClient implements FlowerClient {
    final AtomicInteger fits = new AtomicInteger();
    final AtomicInteger evaluations = new AtomicInteger();

    @Override
    public FitRes fit(FitIns ins) {
      fits.incrementAndGet();
      List<Tensor> out = new ArrayList<>();
      for (Tensor t : ins.parameters()) {
        TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
        for (long i = 0; i < t.size(); i++) {
          b.setDouble(i, t.getAsDouble(i) + 1);
        }
        out.add(b.build());
      }
      return new FitRes(out, 1, Map.of("loss", Scalar.of(0.5)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      evaluations.incrementAndGet();
      return new EvaluateRes(0.25f, 1, Map.of("accuracy", Scalar.of(0.75)));
    }
  }

  @Test
  void flwrRun_quickstartNumpyUnchanged_javaAloneAndMixedWithPythonComplete() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path example = io.tributary.tensor.testing.PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/quickstart-numpy");
    Path appDir = dir.resolve("quickstart-numpy");
    try (var files = Files.walk(example)) {
      for (Path f : files.toList()) {
        Path to = appDir.resolve(example.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    AddOneClient client = new AddOneClient();
    // the example's ClientApp replies {random_metric, num-examples}, a list of 3 when evaluating:
    // Flower's FedAvg refuses a round whose replies' metric keys differ
    ClientApp app = TrainingClientApp.of(client,
        MetricKey.parseAll(List.of("random_metric=loss", "num-examples")),
        MetricKey.parseAll(List.of("random_metric=[loss,accuracy,loss]", "num-examples")));
    try (FlowerDeployment d = new FlowerDeployment(flower, dir.resolve("grpc"))) {
      d.startSuperLink();
      SuperNode b = grpcNode(d, app, 0);
      try {
        try (SuperNode a = grpcNode(d, app, 0)) {
          assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
          assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
          String id = lastRunId(d.flwrRun(appDir, Duration.ofMinutes(2)));
          assertThat(awaitFinished(d, id)).as(d.tail(d.log("superlink")))
              .isEqualTo("finished:completed");
        }
        // FedAvg's 3 rounds of train and evaluate on both nodes
        assertThat(client.fits.get()).isEqualTo(6);
        assertThat(client.evaluations.get()).isEqualTo(6);
        Process python = d.startPythonSuperNode("python-supernode", 0);
        String id = lastRunId(d.flwrRun(appDir, Duration.ofMinutes(2)));
        assertThat(awaitFinished(d, id)).as(d.tail(d.log("superlink")))
            .isEqualTo("finished:completed");
        assertThat(client.fits.get()).isEqualTo(9);
        assertThat(client.evaluations.get()).isEqualTo(9);
        python.destroy();
      } finally {
        b.close();
      }
    }
  }
}
