package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary server --fleet-api-address}: SuperNodes join over the Fleet API. */
class ServerFleetCommandTest {
  @TempDir Path dir;

  private static ClientApp plus(float k) {
    return ClientApp.builder().train((Message m, io.tributary.flower.app.Context c) -> {
      Tensor t = ((ArrayRecord) m.content().get("arrays")).toTensors().firstEntry().getValue();
      float[] v = new float[(int) t.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getFloat(i) + k;
      }
      Map<String, Object> metrics = new LinkedHashMap<>();
      metrics.put("num-examples", 1L);
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("0",
          Tensor.ofFloats(t.shape(), v))), "metrics", new MetricRecord(metrics)));
    }).evaluate((Message m, io.tributary.flower.app.Context c) -> m.reply(RecordDict.of(
        "metrics", new MetricRecord(Map.of("num-examples", 1L, "loss", 2.0))))).build();
  }

  @Test
  void server_fleetApiWithTwoSuperNodes_writesTheWeightedMeanAsFinalModel() throws Exception {
    FleetCliServer server = new FleetCliServer(dir);
    Path init = server.initial(Tensor.ofFloats(Shape.of(2), 0, 0));
    Path out = dir.resolve("run");
    CompletableFuture<CliRun> run = server.start(server.app("plus-one"), "--rounds", "1",
        "--min-clients", "2", "--initial", init.toString(), "--run-config", "lr=0.1", "--out",
        out.toString());
    try (SuperNode a = server.node(plus(1)).build().start();
        SuperNode b = server.node(plus(3)).build().start()) {
      CliRun r = run.get(90, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).contains("Fleet API, grpc-rere, tributary/plus-one 1.0.0");
    }
    assertThat(Npz.read(out.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
  }

  @Test
  void server_fleetApiWithoutApp_exitsTwoNamingTheOption() {
    CliRun r = CliRun.of("server", "--fleet-api-address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--fleet-api-address needs --app");
  }

  @Test
  void server_noAddressAtAll_exitsTwo() {
    CliRun r = CliRun.of("server", "--rounds", "1", "--min-clients", "1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("give --address").contains("--fleet-api-address");
  }

  @Test
  void server_appWithoutPyproject_exitsTwoNamingIt() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    CliRun r = CliRun.of("server", "--fleet-api-address", "127.0.0.1:0", "--app",
        empty.toString(), "--rounds", "1", "--min-clients", "1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--app").contains("pyproject.toml");
  }

  @Test
  void server_httpsFleetApiWithSupernodeAuth_javaNodesWithSshKeygenKeysJoin() throws Exception {
    io.tributary.flower.server.TestCerts certs = new io.tributary.flower.server.TestCerts(
        Files.createDirectories(dir.resolve("certs")));
    Path a = sshKeygen("a");
    Path b = sshKeygen("b");
    Path authorized = dir.resolve("authorized.pub");
    Files.writeString(authorized, Files.readString(Path.of(a + ".pub"))
        + Files.readString(Path.of(b + ".pub")));
    FleetCliServer server = new FleetCliServer(dir);
    Path init = server.initial(Tensor.ofFloats(Shape.of(2), 0, 0));
    Path out = dir.resolve("run");
    java.util.Iterator<Path> keys = java.util.List.of(a, b).iterator();

    CliRun r = serveFleet(server, server.app("plus-one"), node -> {
      try {
        return node.insecure(false).rootCertificates(certs.caCert)
            .transport(io.tributary.flower.fleet.FleetTransport.http())
            .authKeys(io.tributary.flower.fleet.NodeKeys.read(keys.next()));
      } catch (io.tributary.flower.fleet.NodeKeyException e) {
        throw new AssertionError(e);
      }
    }, "--fleet-api-type", "http", "--tls-cert", certs.serverCert.toString(), "--tls-key",
        certs.serverKey.toString(), "--enable-supernode-auth", "--supernode-keys",
        authorized.toString(), "--rounds", "1", "--initial", init.toString(),
        "--out", out.toString());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(Npz.read(out.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
  }

  private Path sshKeygen(String name) throws Exception {
    Path key = dir.resolve(name);
    Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ecdsa", "-b", "384", "-N", "",
        "-f", key.toString()).redirectErrorStream(true).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS)
        && p.exitValue() == 0, "ssh-keygen is not usable here");
    return key;
  }

  /** One run of the Fleet server with two Java SuperNodes (+1 and +3, one example each). */
  private CliRun serveFleet(FleetCliServer server, Path app, String... args) throws Exception {
    return serveFleet(server, app, node -> node, args);
  }

  /** {@link #serveFleet(FleetCliServer, Path, String...)} with the nodes' builders adjusted. */
  private CliRun serveFleet(FleetCliServer server, Path app,
      java.util.function.UnaryOperator<SuperNode.Builder> nodes, String... args)
      throws Exception {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("--min-clients",
        "2"));
    all.addAll(java.util.List.of(args));
    CompletableFuture<CliRun> run = server.start(app, all.toArray(String[]::new));
    try (SuperNode a = nodes.apply(server.node(plus(1))).build().start();
        SuperNode b = nodes.apply(server.node(plus(3))).build().start()) {
      return run.get(90, TimeUnit.SECONDS);
    }
  }

  @Test
  void serverResume_fleetRunAfterOneRound_goesOnWithRoundTwo() throws Exception {
    FleetCliServer server = new FleetCliServer(dir);
    Path init = server.initial(Tensor.ofFloats(Shape.of(2), 0, 0));
    Path out = dir.resolve("run");
    Path app = server.app("plus-one");
    CliRun first = serveFleet(server, app, "--rounds", "1", "--initial", init.toString(),
        "--out", out.toString());
    assertThat(first.exitCode()).as(first.err()).isZero();

    CliRun resumed = serveFleet(new FleetCliServer(dir), app, "--rounds", "2", "--resume",
        out.toString());

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.out()).contains("resuming " + out + " after round 1")
        .contains("round 2/2: 2 clients");
    assertThat(Files.readAllLines(out.resolve("metrics.jsonl"))).hasSize(2);
    // Each round moves w by the mean of +1 and +3.
    assertThat(Npz.read(out.resolve("final.npz")).get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), 4, 4));
  }
}
