package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.fleet.server.SecAggPlusNodes;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary server --fleet-api-address --secure-aggregation}: Flower's SecAgg+ over Java
 * SuperNodes wearing {@code SecAggPlusMod} ({@link SecAggPlusNodes}); the final model is the
 * example-weighted mean of their replies. (Python nodes with Flower's {@code secaggplus_mod}:
 * FleetServerSecAggPlusTest.)
 */
@Timeout(180)
class ServerFleetSecAggTest {
  @TempDir Path dir;

  private FleetCliServer server;

  private Path app() throws Exception {
    server = new FleetCliServer(dir);
    return server.app("secagg-java", "pkg.server_app:app", "pkg.client_app:app");
  }

  @Test
  void server_fleetSecureAggregationOverJavaNodes_finalModelIsTheWeightedMean()
      throws Exception {
    Path app = app();
    Path init = server.initial(Tensor.ofDoubles(Shape.of(3), 1, 2, 3));
    Path out = dir.resolve("run");
    CompletableFuture<CliRun> run = server.start(app, "--rounds", "1", "--min-clients", "3",
        "--initial", init.toString(), "--secure-aggregation", "--secagg-neighbours", "2",
        "--secagg-threshold", "2", "--secagg-max-weight", "10", "--round-timeout", "30",
        "--client-wait", "60", "--out", out.toString());
    List<SuperNode> nodes = new ArrayList<>();
    try {
      Thread.sleep(2000);
      for (int k = 1; k <= 3; k++) {
        nodes.add(SecAggPlusNodes.start(server.address(), k));
      }
      CliRun r = run.get(150, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.err()).isZero();
    } finally {
      for (SuperNode n : nodes) {
        n.close();
      }
    }
    List<String> metrics = Files.readAllLines(out.resolve("metrics.jsonl"));
    assertThat(metrics.getFirst()).contains("\"examples\": 6").contains("\"failures\": 0");
    // +1, +2, +3 with 1, 2, 3 examples: (1 + 4 + 9) / 6
    Tensor w = Npz.read(out.resolve("final.npz")).get("w");
    for (int i = 0; i < 3; i++) {
      assertThat(w.getAsDouble(i)).as("w[%d]", i).isCloseTo(i + 1 + 14.0 / 6, within(1e-4));
    }
  }

  @Test
  void server_fleetSecureAggregationWithJoinAddress_usageErrorNamingWhy() throws Exception {
    CliRun r = CliRun.of("server", "--address", "127.0.0.1:0", "--fleet-api-address",
        "127.0.0.1:0", "--app", app().toString(), "--rounds", "1", "--min-clients", "3",
        "--secure-aggregation");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("leave out --address");
  }

  @Test
  void server_fleetSecureAggregationWithDp_usageErrorNamingWhy() throws Exception {
    CliRun r = CliRun.of("server", "--fleet-api-address", "127.0.0.1:0", "--app",
        app().toString(), "--rounds", "1", "--min-clients", "3", "--secure-aggregation",
        "--dp", "client", "--noise-multiplier", "0.1", "--clip", "1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--dp with --secure-aggregation over the Fleet API");
  }

  @Test
  void server_secaggMaxWeightWithoutFleet_usageErrorNamingWhy() {
    CliRun r = CliRun.of("server", "--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "3", "--secure-aggregation", "--secagg-max-weight", "10");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--fleet-api-address");
  }
}
