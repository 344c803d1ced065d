package io.tributary.flower.fleet.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Flower 1.27 {@code flower-supernode}s running Flower's quickstart-numpy ClientApp
 * unchanged ({@code ../shared/peers/flower/examples/quickstart-numpy}) on a {@link FleetServer}:
 * its {@code train} replies with the model plus {@code np.random.rand} and {@code num-examples}
 * 1; each ClientApp process seeds numpy ({@link PythonSuperNodes}), so each round's aggregate can
 * be checked against the example-weighted mean of the replies.
 */
@Timeout(300)
class FleetServerFlowerInteropTest {
  private static final double[] INIT = {1, 2, 3};

  @TempDir Path dir;

  private static Path quickstart() {
    return PythonSuperNodes.quickstartNumpy();
  }

  private static ServerConfig config(int rounds, int minClients, Duration roundTimeout) {
    SequencedMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofDoubles(Shape.of(3), INIT));
    return ServerConfig.builder().address("127.0.0.1", 0).rounds(rounds).minClients(minClients)
        .roundTimeout(roundTimeout).clientWait(Duration.ofSeconds(90))
        .initial(InitialParameters.given(init)).build();
  }

  private static void assertModel(RunResult r, double[] expected) {
    Tensor w = r.finalParameters().get("w");
    for (int i = 0; i < expected.length; i++) {
      assertThat(w.getAsDouble(i)).as("w[%d]", i).isCloseTo(expected[i], within(1e-9));
    }
  }

  @Test
  void run_pythonNodesJavaNodeAndJoinClient_eachRoundIsTheWeightedMeanOfTheReplies()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(2, 4, Duration.ofSeconds(120)), fleet)) {
      double[] u11 = nodes.rand(11, 3);
      double[] u12 = nodes.rand(12, 3);
      String at = "127.0.0.1:" + server.fleetPort();
      nodes.start("py-a", at, 11);
      nodes.start("py-b", at, 12);
      ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1",
          server.joinPort().orElseThrow()).usePlaintext().build();
      try (SuperNode java = SuperNode.builder(at).insecure(true)
            .transport(io.tributary.flower.fleet.FleetTransport.grpcRere())
              .clientApp(PlusK.weighted(3).build()).pollInterval(Duration.ofMillis(200))
              .build().start();
          FlowerClientRunner legacy = FlowerClientRunner.builder(new PlusJoinClient(2, 2))
              .channel(channel).build()) {
        CompletableFuture<FlowerClientRunner.Outcome> unused = legacy.start();
        RunResult r;
        try {
          r = server.run();
        } catch (RuntimeException | io.tributary.flower.server.FlowerServerException e) {
          throw new AssertionError(e + "\n--- py-a:\n" + nodes.tail("py-a"), e);
        }
        // Replies: w + u11 (1 example), w + u12 (1), w + 3 (3), w + 2 (2); FedAvg moves w by
        // their example-weighted mean less w, the same in both rounds.
        double[] expected = INIT.clone();
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < 3; i++) {
            expected[i] += (u11[i] + u12[i] + 3 * 3 + 2 * 2) / 7.0;
          }
        }
        for (RoundRecord rec : r.rounds()) {
          assertThat(rec.failureReasons()).as("round %d", rec.round()).isEmpty();
          assertThat(rec.clients()).isEqualTo(4);
          assertThat(rec.examples()).isEqualTo(7);
        }
        assertModel(r, expected);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Test
  void run_restSuperNodes_overHttpEachRoundIsTheWeightedMeanOfTheReplies() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .transport(FleetTransport.HTTP).serveJoin(false).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(1, 2, Duration.ofSeconds(120)), fleet)) {
      double[] u21 = nodes.rand(21, 3);
      double[] u22 = nodes.rand(22, 3);
      String at = "http://127.0.0.1:" + server.fleetPort();
      nodes.start("rest-a", at, 21, "--rest");
      nodes.start("rest-b", at, 22, "--rest");
      RunResult r;
      try {
        r = server.run();
      } catch (io.tributary.flower.server.FlowerServerException e) {
        throw new AssertionError(e + "\n--- rest-a:\n" + nodes.tail("rest-a"), e);
      }
      double[] expected = INIT.clone();
      for (int i = 0; i < 3; i++) {
        expected[i] += (u21[i] + u22[i]) / 2.0;
      }
      assertThat(r.rounds().getFirst().failureReasons()).isEmpty();
      assertThat(r.rounds().getFirst().clients()).isEqualTo(2);
      assertModel(r, expected);
    }
  }

  @Test
  void run_restSuperNodesWithReadAheadForOneReply_repliesWaitTheirTurnAndRoundsAreTheMean()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .transport(FleetTransport.HTTP).serveJoin(false).build();
    // 12,000 float64 (96 KB) a reply, above the 64 KiB a large message starts at; the least
    // read-ahead (64 KiB) admits one reply at a time, so two of three nodes wait in
    // PushMessages each round until the round has taken the reply before theirs.
    int n = 12_000;
    double[] init = new double[n];
    for (int i = 0; i < n; i++) {
      init[i] = i % 7 - 3;
    }
    SequencedMap<String, Tensor> initial = new LinkedHashMap<>();
    initial.put("w", Tensor.ofDoubles(Shape.of(n), init));
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0).rounds(2).minClients(3)
        .roundTimeout(Duration.ofSeconds(120)).clientWait(Duration.ofSeconds(90))
        .readAheadBytes(ServerConfig.MIN_READ_AHEAD_BYTES)
        .initial(InitialParameters.given(initial)).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config, fleet)) {
      double[][] u = {nodes.rand(41, n), nodes.rand(42, n), nodes.rand(43, n)};
      String at = "http://127.0.0.1:" + server.fleetPort();
      for (int k = 0; k < 3; k++) {
        nodes.start("wait-" + k, at, 41 + k, "--rest");
      }
      RunResult r;
      try {
        r = server.run();
      } catch (io.tributary.flower.server.FlowerServerException e) {
        throw new AssertionError(e + "\n--- wait-0:\n" + nodes.tail("wait-0"), e);
      }
      double[] expected = init.clone();
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) {
          expected[i] += (u[0][i] + u[1][i] + u[2][i]) / 3.0;
        }
      }
      for (RoundRecord rec : r.rounds()) {
        assertThat(rec.failureReasons()).as("round %d", rec.round()).isEmpty();
        assertThat(rec.clients()).isEqualTo(3);
      }
      assertModel(r, expected);
    }
  }

  @Test
  void run_restSuperNodesOverHttps_trustTheServersCertificateAndJoin() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    io.tributary.flower.server.TestCerts certs = new io.tributary.flower.server.TestCerts(
        Files.createDirectories(dir.resolve("certs")));
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .transport(FleetTransport.HTTP).serveJoin(false)
        .tls(new io.tributary.flower.server.TlsFiles(certs.serverCert, certs.serverKey,
            java.util.Optional.empty())).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(1, 2, Duration.ofSeconds(120)), fleet)) {
      double[] u25 = nodes.rand(25, 3);
      double[] u26 = nodes.rand(26, 3);
      String at = "https://127.0.0.1:" + server.fleetPort();
      String ca = certs.caCert.toString();
      nodes.start("tls-a", at, 25, "--rest", "--root-certificates", ca);
      nodes.start("tls-b", at, 26, "--rest", "--root-certificates", ca);
      RunResult r;
      try {
        r = server.run();
      } catch (io.tributary.flower.server.FlowerServerException e) {
        throw new AssertionError(e + "\n--- tls-a:\n" + nodes.tail("tls-a"), e);
      }
      double[] expected = INIT.clone();
      for (int i = 0; i < 3; i++) {
        expected[i] += (u25[i] + u26[i]) / 2.0;
      }
      assertThat(r.rounds().getFirst().failureReasons()).isEmpty();
      assertThat(r.rounds().getFirst().clients()).isEqualTo(2);
      assertModel(r, expected);
    }
  }

  private Path sshKey(String name) throws Exception {
    Path key = dir.resolve(name);
    Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ecdsa", "-b", "384", "-N", "",
        "-f", key.toString()).redirectErrorStream(true).start();
    if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
      return PythonEnv.unavailable("ssh-keygen failed: " + new String(
          p.getInputStream().readAllBytes()));
    }
    return key;
  }

  @Test
  void run_supernodeAuth_onlyNodesWithRegisteredKeysJoin() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path a = sshKey("a");
    Path b = sshKey("b");
    Path stranger = sshKey("stranger");
    Path authorized = dir.resolve("authorized.pub");
    Files.writeString(authorized, Files.readString(Path.of(a + ".pub"))
        + Files.readString(Path.of(b + ".pub")));
    // Flower's SuperNodes sign their calls only over TLS.
    io.tributary.flower.server.TestCerts certs = new io.tributary.flower.server.TestCerts(
        Files.createDirectories(dir.resolve("certs")));
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .authorizedKeys(FleetApi.readAuthorizedKeys(authorized))
        .tls(new io.tributary.flower.server.TlsFiles(certs.serverCert, certs.serverKey,
            java.util.Optional.empty())).serveJoin(false).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(1, 2, Duration.ofSeconds(120)), fleet)) {
      double[] u31 = nodes.rand(31, 3);
      double[] u32 = nodes.rand(32, 3);
      String at = "127.0.0.1:" + server.fleetPort();
      String ca = certs.caCert.toString();
      nodes.start("stranger", at, 33, "--root-certificates", ca, "--auth-supernode-private-key",
          stranger.toString());
      nodes.start("auth-a", at, 31, "--root-certificates", ca, "--auth-supernode-private-key",
          a.toString());
      nodes.start("auth-b", at, 32, "--root-certificates", ca, "--auth-supernode-private-key",
          b.toString());
      RunResult r;
      try {
        r = server.run();
      } catch (io.tributary.flower.server.FlowerServerException e) {
        throw new AssertionError(e + "\n--- auth-a:\n" + nodes.tail("auth-a"), e);
      }
      double[] expected = INIT.clone();
      for (int i = 0; i < 3; i++) {
        expected[i] += (u31[i] + u32[i]) / 2.0;
      }
      assertThat(r.rounds().getFirst().clients()).isEqualTo(2);
      assertThat(r.rounds().getFirst().failureReasons()).isEmpty();
      assertModel(r, expected);
      assertThat(server.connectedClients()).hasSize(2);
      assertThat(nodes.tail("stranger")).containsIgnoringCase("No SuperNode found");
    }
  }

  @Test
  void run_nodeKilledMidRun_failsOnlyItsOwnReplyAndTheRoundUsesTheOthers() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .serveJoin(false).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(2, 3, Duration.ofSeconds(20)), fleet)) {
      double[] u41 = nodes.rand(41, 3);
      double[] u42 = nodes.rand(42, 3);
      double[] u43 = nodes.rand(43, 3);
      String at = "127.0.0.1:" + server.fleetPort();
      nodes.start("kill-a", at, 41);
      nodes.start("kill-b", at, 42);
      Process victim = nodes.start("kill-c", at, 43);
      RunResult r = server.run(new io.tributary.learning.rounds.RoundListener() {
        @Override
        public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
            throws java.io.IOException {
          if (metrics.round() == 1) {
            try {
              PythonSuperNodes.kill(victim);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        }
      });
      // Round 1: all three; round 2: the killed node never answers, the others do.
      double[] expected = INIT.clone();
      for (int i = 0; i < 3; i++) {
        expected[i] += (u41[i] + u42[i] + u43[i]) / 3.0 + (u41[i] + u42[i]) / 2.0;
      }
      assertThat(r.rounds().get(0).failureReasons()).isEmpty();
      List<String> reasons = r.rounds().get(1).failureReasons();
      assertThat(reasons).anySatisfy(x -> assertThat(x).startsWith("fit:")
          .contains("node-"));
      assertModel(r, expected);
    }
  }

  @Test
  void run_nodeKilledAndRestartedMidRun_rejoinsAndItsRepliesCountInLaterRounds()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    FleetApi fleet = FleetApi.builder(FlowerApp.load(quickstart())).address("127.0.0.1", 0)
        .serveJoin(false).build();
    try (PythonSuperNodes nodes = new PythonSuperNodes(flower, dir);
        FleetServer server = FleetServer.start(config(3, 2, Duration.ofSeconds(40)), fleet)) {
      double[] u51 = nodes.rand(51, 3);
      double[] u52 = nodes.rand(52, 3);
      double[] u53 = nodes.rand(53, 3);
      String at = "127.0.0.1:" + server.fleetPort();
      nodes.start("stay", at, 51);
      Process victim = nodes.start("victim", at, 52);
      java.util.Set<String> before = new java.util.HashSet<>();
      java.util.concurrent.atomic.AtomicReference<String> rejoined =
          new java.util.concurrent.atomic.AtomicReference<>();
      RunResult r = server.run(new io.tributary.learning.rounds.RoundListener() {
        @Override
        public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
            throws java.io.IOException {
          if (metrics.round() != 1) {
            return;
          }
          // Killed without a goodbye, then started again (its ClientApp now seeded 53, so its
          // replies can be told from the old ones); round 2 waits until it is back.
          before.addAll(server.connectedClients());
          try {
            PythonSuperNodes.kill(victim);
            nodes.start("victim-again", at, 53);
            long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (rejoined.get() == null && System.nanoTime() < until) {
              server.connectedClients().stream().filter(id -> !before.contains(id)).findFirst()
                  .ifPresent(rejoined::set);
              Thread.sleep(200);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (rejoined.get() == null) {
            throw new java.io.IOException("the restarted node did not rejoin:\n"
                + nodes.tail("victim-again"));
          }
        }
      });
      // Round 1: stay and victim; rounds 2 and 3: stay and the restarted node (the dead one,
      // still counted online until its heartbeats are missed, fails only its own reply).
      double[] expected = INIT.clone();
      for (int i = 0; i < 3; i++) {
        expected[i] += (u51[i] + u52[i]) / 2.0 + 2 * (u51[i] + u53[i]) / 2.0;
      }
      assertThat(r.rounds()).hasSize(3);
      assertThat(r.rounds().get(0).failureReasons()).isEmpty();
      for (int round = 1; round < 3; round++) {
        assertThat(r.rounds().get(round).examples()).as("round %d", round + 1).isEqualTo(2);
      }
      assertThat(r.rounds().get(1).failureReasons()).anySatisfy(x -> assertThat(x)
          .startsWith("fit:").contains("node-").doesNotContain(rejoined.get()));
      assertModel(r, expected);
      assertThat(server.connectedClients()).contains(rejoined.get());
    }
  }
}
