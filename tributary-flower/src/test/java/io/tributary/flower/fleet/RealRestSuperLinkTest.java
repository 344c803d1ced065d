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
}
