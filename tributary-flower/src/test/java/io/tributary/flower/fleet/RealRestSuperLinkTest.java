package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java SuperNodes over HTTP in a real Flower 1.27 deployment whose SuperLink serves the Fleet API
 * over its REST transport ({@code --fleet-api-type rest}, under {@code /api/v0/fleet}, the design
 * Flower 1.40+ serves under {@code /v1/fleet}) and keeps its state in a SQLite file
 * ({@code --database FILE}), whose object store lists a message's children sorted by id. Flower's
 * own Message-API FedAvg runs 3 rounds; every message must be accepted (a refused one would leave
 * a round with fewer nodes and change the result). No Python node joins: Flower 1.27's own
 * {@code flower-supernode --rest} posts to {@code //api/v0/fleet/register-node} and gets a 404.
 */
@Timeout(420)
class RealRestSuperLinkTest {
  @TempDir Path dir;

  private static SuperNode httpNode(FlowerDeployment d, PlusKApp app, long k) {
    return SuperNode.builder(d.fleetAddress())
        .transport(FleetTransport.http(FleetTransport.FLEET_REST_V0)).insecure(true)
        .nodeConfig(Map.of("k", k)).clientApp(app.app()).pollInterval(Duration.ofMillis(300))
        .build().start();
  }

  private static FlowerDeployment restWithDatabase(FlowerPeer flower, Path dir) throws Exception {
    FlowerDeployment d = new FlowerDeployment(flower, dir);
    d.superLinkArgs.addAll(List.of("--fleet-api-type", "rest", "--database",
        dir.resolve("state.db").toString()));
    return d;
  }

  private static void assertB(Path out, double... expected) throws Exception {
    String line = Files.readAllLines(out).stream().filter(l -> l.startsWith("ARRAY b "))
        .findFirst().orElseThrow();
    String[] f = line.split(" ");
    assertThat(f[2]).isEqualTo("float64");
    String[] v = f[3].split(",");
    for (int i = 0; i < expected.length; i++) {
      assertThat(Double.parseDouble(v[i])).isCloseTo(expected[i], within(1e-9));
    }
  }

  @Test
  void flwrRun_restSuperLinkWithDatabase_twoJavaHttpNodesAcceptEveryMessage() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.txt");
    try (FlowerDeployment d = restWithDatabase(flower, dir)) {
      d.startSuperLink();
      SuperNode a = httpNode(d, app, 1);
      SuperNode b = httpNode(d, app, 3);
      try {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(a.nodeId()).isNotEqualTo(b.nodeId());
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        d.await(out, Duration.ofMinutes(3));
        assertThat(Files.readString(out)).contains("TRAIN_ROUNDS 1,2,3", "EVALUATE_ROUNDS 1,2,3");
        // both nodes in every round: +2.5 per round from (0.5, -1, 2)
        assertB(out, 8.0, 6.5, 9.5);
        assertThat(app.reports).hasSize(6);
        assertThat(app.evaluated).hasSize(6);
      } finally {
        a.close();
        b.close();
      }
      assertThat(a.leftCleanly()).isTrue();
      assertThat(b.leftCleanly()).isTrue();
    }
  }

  /** Flower's e2e-bare {@code NumPyClient} in Java: parameters scaled to mean 5. */
  static final class BareClient implements io.tributary.flower.FlowerClient {
    final java.util.concurrent.atomic.AtomicInteger fits =
        new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicInteger evaluations =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public List<io.tributary.tensor.Tensor> getParameters(
        Map<String, io.tributary.flower.Scalar> config) {
      return List.of(io.tributary.tensor.Tensor.ofLongs(io.tributary.tensor.Shape.of(1), 1));
    }

    @Override
    public io.tributary.flower.FitRes fit(io.tributary.flower.FitIns ins) {
      fits.incrementAndGet();
      io.tributary.tensor.Tensor p = ins.parameters().getFirst();
      double mean = p.getAsDouble(0);
      return new io.tributary.flower.FitRes(List.of(io.tributary.tensor.Tensor.ofDoubles(
          p.shape(), mean * (5 / mean))), 1, Map.of());
    }

    @Override
    public io.tributary.flower.EvaluateRes evaluate(io.tributary.flower.EvaluateIns ins) {
      evaluations.incrementAndGet();
      double loss = Math.min(Math.abs(1 - ins.parameters().getFirst().getAsDouble(0) / 5), 1);
      return new io.tributary.flower.EvaluateRes((float) loss, 1, Map.of("accuracy",
          io.tributary.flower.Scalar.of(1 - loss)));
    }
  }

  @Test
  void flwrRun_e2eBareDefaultWorkflow_javaLegacyClientAppsCompleteIt() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path e2e = io.tributary.tensor.testing.PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/e2e/e2e-bare");
    Path appDir = dir.resolve("e2e-bare");
    try (var files = Files.walk(e2e)) {
      for (Path f : files.toList()) {
        Path to = appDir.resolve(e2e.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    BareClient client = new BareClient();
    try (FlowerDeployment d = restWithDatabase(flower, dir)) {
      d.startSuperLink();
      SuperNode a = SuperNode.builder(d.fleetAddress())
          .transport(FleetTransport.http(FleetTransport.FLEET_REST_V0)).insecure(true)
          .clientApp(io.tributary.flower.app.LegacyClientApp.of(client))
          .pollInterval(Duration.ofMillis(300)).build().start();
      SuperNode b = SuperNode.builder(d.fleetAddress())
          .transport(FleetTransport.http(FleetTransport.FLEET_REST_V0)).insecure(true)
          .clientApp(io.tributary.flower.app.LegacyClientApp.of(client))
          .pollInterval(Duration.ofMillis(300)).build().start();
      try {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        d.flwrRun(appDir, Duration.ofMinutes(2));
        String status = "";
        long end = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        while (System.nanoTime() < end) {
          status = d.flwr(Duration.ofMinutes(1), "ls", "test", "--format", "json");
          if (status.contains("\"status\": \"finished")) {
            break;
          }
          Thread.sleep(2000);
        }
        assertThat(status).as(d.tail(d.log("superlink")))
            .contains("\"status\": \"finished:completed\"");
        // DefaultWorkflow's FedAvg: 3 rounds of fit and evaluate on both nodes
        assertThat(client.fits.get()).isEqualTo(6);
        assertThat(client.evaluations.get()).isEqualTo(6);
      } finally {
        a.close();
        b.close();
      }
    }
  }
}
