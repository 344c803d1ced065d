package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java SuperNodes in a real Flower 1.27 deployment: {@code flower-superlink --insecure}, the test
 * Flower App ({@code fleet/fedapp}) whose ServerApp runs Flower's own Message-API
 * {@code FedAvg} for 3 rounds, started with {@code flwr run} through the SuperLink's Control API.
 * The final model must be the example-weighted mean of what the clients reported in round 3.
 */
@Timeout(420)
class RealSuperLinkTest {
  @TempDir Path dir;

  private static SuperNode javaNode(FlowerDeployment d, PlusKApp app, long k) {
    return SuperNode.builder(d.fleetAddress()).transport(FleetTransport.grpcRere())
        .insecure(true).nodeConfig(Map.of("k", k))
        .clientApp(app.app()).pollInterval(Duration.ofMillis(300)).build().start();
  }

  /** What the ServerApp wrote: "TRAIN_ROUNDS 1,2,3", "ARRAY name dtype v,v,...". */
  private static Map<String, String> result(Path file) throws Exception {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split(" ", 2);
      if (f[0].equals("ARRAY")) {
        String[] g = f[1].split(" ", 2);
        m.put("ARRAY " + g[0], g[1]);
      } else {
        m.put(f[0], f[1]);
      }
    }
    return m;
  }

  private static void assertArray(Map<String, String> result, String name, double[] expected,
      String dtype) {
    String[] a = result.get("ARRAY " + name).split(" ", 2);
    assertThat(a[0]).isEqualTo(dtype);
    String[] values = a[1].split(",");
    assertThat(values).hasSize(expected.length);
    for (int i = 0; i < expected.length; i++) {
      assertThat(Double.parseDouble(values[i])).as("%s[%d]", name, i)
          .isCloseTo(expected[i], within(1e-5 * Math.max(1, Math.abs(expected[i]))));
    }
  }

  /** The example-weighted mean of {@code name} over the reports, in double. */
  private static double[] weightedMean(List<PlusKApp.Report> reports, String name) {
    long total = reports.stream().mapToLong(PlusKApp.Report::numExamples).sum();
    double[] out = null;
    for (PlusKApp.Report r : reports) {
      Tensor t = r.arrays().get(name);
      if (out == null) {
        out = new double[(int) t.size()];
      }
      for (int i = 0; i < out.length; i++) {
        out[i] += t.getAsDouble(i) * r.numExamples() / total;
      }
    }
    return out;
  }

  @Test
  void flwrRun_fedAvgOverTwoJavaSuperNodes_completesWithTheWeightedMeanOfTheirReports()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      SuperNode a = javaNode(d, app, 1);
      SuperNode b = javaNode(d, app, 3);
      try {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(a.nodeId()).isNotEqualTo(b.nodeId());
        String run = d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        assertThat(run).contains("Successfully started run");
        d.await(out, Duration.ofMinutes(3));
        Map<String, String> r = result(out);
        assertThat(r.get("TRAIN_ROUNDS")).isEqualTo("1,2,3");
        assertThat(r.get("EVALUATE_ROUNDS")).isEqualTo("1,2,3");
        assertThat(app.reports).hasSize(6);
        List<PlusKApp.Report> last = new ArrayList<>(app.reports.stream()
            .filter(x -> x.round().equals("3")).toList());
        assertThat(last).hasSize(2);
        assertArray(r, "w", weightedMean(last, "w"), "float32");
        assertArray(r, "b", weightedMean(last, "b"), "float64");
        // each round adds (1*1 + 3*3) / 4 = 2.5 to every element: 3 rounds add 7.5
        assertArray(r, "b", new double[] {8.0, 6.5, 9.5}, "float64");
        assertThat(app.evaluated).hasSize(6);
      } finally {
        a.close();
        b.close();
      }
      // stopping deactivates and unregisters each node, as flower-supernode does
      assertThat(a.leftCleanly()).isTrue();
      assertThat(b.leftCleanly()).isTrue();
      assertThat(Files.readString(d.log("superlink"))).contains(
          "[Fleet.DeactivateNode] Deactivated node_id=" + Long.toUnsignedString(a.nodeId()),
          "[Fleet.DeactivateNode] Deactivated node_id=" + Long.toUnsignedString(b.nodeId()));
    }
  }

  @Test
  void flwrRun_pythonAndJavaSuperNodeInOneRun_bothTrainEveryRound() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      d.startPythonSuperNode("python-supernode", 3);
      try (SuperNode a = javaNode(d, app, 1)) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        String run = d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        assertThat(run).contains("Successfully started run");
        d.await(out, Duration.ofMinutes(3));
        Map<String, String> r = result(out);
        assertThat(r.get("TRAIN_ROUNDS")).isEqualTo("1,2,3");
        assertThat(app.reports).hasSize(3);
        // Python node (k=3, 3 examples) and Java node (k=1, 1 example): +2.5 per round
        assertArray(r, "w", new double[] {7.5, 8.5, 9.5, 10.5, 11.5, 12.5},
            "float32");
        assertArray(r, "b", new double[] {8.0, 6.5, 9.5}, "float64");
        // the Java node's round-3 report is round 2's model + 1, the Python one's + 3
        Tensor javaW = app.reports.stream().filter(x -> x.round().equals("3")).findFirst()
            .orElseThrow().arrays().get("w");
        assertThat(javaW.getFloat(0)).isEqualTo(5.0f + 1);
      }
    }
  }

  @Test
  void superLinkKilledMidRun_javaSuperNodesRejoinWhenItReturnsAndServeTheNextRun()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      try (SuperNode a = quickRetrying(d, app, 1); SuperNode b = quickRetrying(d, app, 3)) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        long before = a.nodeId();
        // a first run, killed with its SuperLink once the Java nodes have trained in it
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + dir.resolve("never.txt") + "\"");
        long trained = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (app.reports.isEmpty() && System.nanoTime() < trained) {
          Thread.sleep(100);
        }
        assertThat(app.reports).isNotEmpty();
        d.killSuperLink();
        int reportsOfTheKilledRun = app.reports.size();
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while ((a.isActive() || b.isActive()) && System.nanoTime() < end) {
          Thread.sleep(100);
        }
        assertThat(a.isActive()).as("node noticed the SuperLink is gone").isFalse();
        d.startSuperLink();
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        // the new SuperLink knew nothing of the node: it registered again, under a new id
        assertThat(a.nodeId()).isNotEqualTo(before);
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        d.await(out, Duration.ofMinutes(3));
        assertThat(result(out).get("TRAIN_ROUNDS")).isEqualTo("1,2,3");
        assertArray(result(out), "b", new double[] {8.0, 6.5, 9.5}, "float64");
        assertThat(app.reports).hasSize(reportsOfTheKilledRun + 6);
        assertThat(dir.resolve("never.txt")).doesNotExist();
      }
    }
  }

  private static SuperNode quickRetrying(FlowerDeployment d, PlusKApp app, long k) {
    return SuperNode.builder(d.fleetAddress()).transport(FleetTransport.grpcRere())
        .insecure(true).nodeConfig(Map.of("k", k))
        .clientApp(app.app()).pollInterval(Duration.ofMillis(300))
        .backoff(io.tributary.flower.Backoff.DEFAULT.withDelays(Duration.ofMillis(200),
            Duration.ofSeconds(2)).withMaxAttempts(Integer.MAX_VALUE))
        .build().start();
  }

  @Test
  void flwrRun_superLinkWithTls_javaSuperNodesTrustingItsCaComplete() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    io.tributary.flower.testing.Certificates authority =
        io.tributary.flower.testing.Certificates.authority("Tributary test CA");
    Path ca = authority.writeCa(dir.resolve("ca.crt"));
    io.tributary.flower.testing.Certificates.Pem server = authority.issue(dir, "superlink");
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir, ca, server.cert(),
        server.key())) {
      d.startSuperLink();
      try (SuperNode a = tlsNode(d, app, 1, ca); SuperNode b = tlsNode(d, app, 3, ca)) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        d.await(out, Duration.ofMinutes(3));
        assertThat(result(out).get("TRAIN_ROUNDS")).isEqualTo("1,2,3");
        assertArray(result(out), "b", new double[] {8.0, 6.5, 9.5}, "float64");
      }
    }
  }

  private static SuperNode tlsNode(FlowerDeployment d, PlusKApp app, long k, Path ca) {
    return SuperNode.builder("localhost:" + d.fleetPort)
        .transport(FleetTransport.grpcRere()).rootCertificates(ca)
        .nodeConfig(Map.of("k", k)).clientApp(app.app()).pollInterval(Duration.ofMillis(300))
        .build().start();
  }

  /** The OpenSSH form of an EC public key, which {@code flwr supernode register} reads. */
  static String openSsh(java.security.interfaces.ECPublicKey key) throws Exception {
    int bytes = (key.getParams().getCurve().getField().getFieldSize() + 7) / 8;
    String curve = "nistp" + key.getParams().getCurve().getField().getFieldSize();
    java.io.ByteArrayOutputStream point = new java.io.ByteArrayOutputStream();
    point.write(4);
    point.write(fixed(key.getW().getAffineX(), bytes));
    point.write(fixed(key.getW().getAffineY(), bytes));
    java.io.ByteArrayOutputStream blob = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream out = new java.io.DataOutputStream(blob);
    for (byte[] field : List.of(("ecdsa-sha2-" + curve).getBytes(), curve.getBytes(),
        point.toByteArray())) {
      out.writeInt(field.length);
      out.write(field);
    }
    return "ecdsa-sha2-" + curve + " "
        + java.util.Base64.getEncoder().encodeToString(blob.toByteArray()) + " java-supernode\n";
  }

  private static byte[] fixed(java.math.BigInteger v, int n) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[n];
    int copy = Math.min(raw.length, n);
    System.arraycopy(raw, raw.length - copy, out, n - copy, copy);
    return out;
  }

  @Test
  void flwrRun_supernodeAuthOn_javaSuperNodesWithRegisteredKeysComplete() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    io.tributary.flower.testing.Certificates authority =
        io.tributary.flower.testing.Certificates.authority("Tributary test CA");
    Path ca = authority.writeCa(dir.resolve("ca.crt"));
    io.tributary.flower.testing.Certificates.Pem server = authority.issue(dir, "superlink");
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    java.security.KeyPair[] keys = new java.security.KeyPair[2];
    try (FlowerDeployment d = new FlowerDeployment(flower, dir, ca, server.cert(),
        server.key())) {
      d.superLinkArgs.add("--enable-supernode-auth");
      d.startSuperLink();
      for (int i = 0; i < keys.length; i++) {
        keys[i] = io.tributary.flower.fleet.internal.NodeAuth.generate();
        Path pub = dir.resolve("node" + i + ".pub");
        Files.writeString(pub, openSsh((java.security.interfaces.ECPublicKey)
            keys[i].getPublic()));
        d.flwr(Duration.ofMinutes(1), "supernode", "register", pub.toString(), "test");
      }
      // an unregistered key is refused: the SuperLink does not let nodes register themselves
      try (SuperNode stranger = SuperNode.builder("localhost:" + d.fleetPort)
          .transport(FleetTransport.grpcRere())
          .rootCertificates(ca).clientApp(app.app())
          .backoff(io.tributary.flower.Backoff.DEFAULT.withDelays(Duration.ofMillis(100),
              Duration.ofMillis(200)).withMaxAttempts(2)).build().start()) {
        assertThat(stranger.awaitActive(Duration.ofSeconds(10))).isFalse();
      }
      try (SuperNode a = authNode(d, app, 1, ca, keys[0]);
          SuperNode b = authNode(d, app, 3, ca, keys[1])) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"");
        d.await(out, Duration.ofMinutes(3));
        assertThat(result(out).get("TRAIN_ROUNDS")).isEqualTo("1,2,3");
        assertArray(result(out), "b", new double[] {8.0, 6.5, 9.5}, "float64");
      }
    }
  }

  private static SuperNode authNode(FlowerDeployment d, PlusKApp app, long k, Path ca,
      java.security.KeyPair keys) {
    return SuperNode.builder("localhost:" + d.fleetPort)
        .transport(FleetTransport.grpcRere()).rootCertificates(ca).authKeys(keys)
        .nodeConfig(Map.of("k", k)).clientApp(app.app()).pollInterval(Duration.ofMillis(300))
        .build().start();
  }

  @Test
  void flwrRun_model200MiB_crossesBothWaysIntact() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    PlusKApp app = new PlusKApp();
    Path out = dir.resolve("result.json");
    try (FlowerDeployment d = new FlowerDeployment(flower, dir)) {
      d.startSuperLink();
      try (SuperNode a = javaNode(d, app, 1); SuperNode b = javaNode(d, app, 3)) {
        assertThat(a.awaitActive(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitActive(Duration.ofSeconds(60))).isTrue();
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"", "model-mb=200",
            "num-server-rounds=1");
        d.await(out, Duration.ofMinutes(6));
        // the ServerApp's FedAvg of both replies is exactly its model + 2.5: nothing was lost
        assertThat(result(out).get("BIG")).isEqualTo("float32 " + (200L << 18) + " True");
        // and both Java nodes received the 200 MiB model exactly as sent
        assertThat(app.bigIntact).containsExactly(true, true);
      }
    }
  }
}
