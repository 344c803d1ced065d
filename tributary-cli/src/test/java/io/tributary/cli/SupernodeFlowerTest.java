package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.fleet.FlowerDeployment;
import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.testing.Certificates;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary supernode} against a real Flower 1.27 SuperLink serving TLS with node
 * authentication on ({@code --enable-supernode-auth}): two CLI SuperNodes, each in its own JVM,
 * join with {@code --root-certificates} and OpenSSH keys written by {@code ssh-keygen} and
 * registered with {@code flwr supernode register}, and train in a run of the test Flower App
 * (Flower's FedAvg); a node with an unregistered key is refused; SIGTERM deactivates the nodes.
 * Skipped with the reason when Python or the Flower snapshot is missing (fails under
 * {@code .ci/run}), as tributary-flower's {@code RealSuperLinkTest}.
 */
@Timeout(420)
class SupernodeFlowerTest {
  @TempDir Path dir;

  private Path key(String name) throws IOException {
    Path p = dir.resolve(name);
    try (InputStream in = FlowerDeployment.class.getResourceAsStream("/fleet/keys/" + name)) {
      Files.copy(in, p);
    }
    return p;
  }

  /** {@code tributary supernode ARGS...} in a JVM of its own, output to {@code log}. */
  private static Process cli(Path log, List<String> args) throws IOException {
    return CliProcess.start(log, "512m", "supernode", args);
  }

  /** The shapes of the mclr model on digits, as the fedapp's "init-shapes" run config. */
  private static String digitsMclrShapes() throws Exception {
    LocalTrainingOptions t = new LocalTrainingOptions();
    t.model = "mclr";
    List<Tensor> params = t.prepare(() -> { }).client().getParameters(Map.of());
    return params.stream().map(p -> java.util.Arrays.stream(p.shape().dims())
        .mapToObj(Long::toString).collect(Collectors.joining("x")))
        .collect(Collectors.joining(","));
  }

  @Test
  void supernode_tlsAndRegisteredOpenSshKeys_trainsInAFlowerRunAndLeavesOnSigterm()
      throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Certificates authority = Certificates.authority("Tributary CLI test CA");
    Path ca = authority.writeCa(dir.resolve("ca.crt"));
    Certificates.Pem server = authority.issue(dir, "superlink");
    Path out = dir.resolve("result.txt");
    String shapes = digitsMclrShapes();
    try (FlowerDeployment d = new FlowerDeployment(flower, dir, ca, server.cert(),
        server.key())) {
      d.superLinkArgs.add("--enable-supernode-auth");
      d.startSuperLink();
      for (String pub : List.of("nistp384.pub", "nistp256.pub")) {
        d.flwr(Duration.ofMinutes(1), "supernode", "register", key(pub).toString(), "test");
      }
      String superlink = "localhost:" + d.fleetPort;
      List<String> common = List.of("--superlink", superlink, "--transport", "grpc-rere",
          "--root-certificates", ca.toString(), "--model", "mclr");

      // a key the SuperLink does not know: refused, and the command gives up with 1
      List<String> stranger = new ArrayList<>(List.of("supernode"));
      stranger.addAll(common);
      stranger.addAll(List.of("--auth-supernode-private-key", key("nistp521").toString(),
          "--max-retries", "2"));
      CliRun refused = CliRun.of(stranger.toArray(String[]::new));
      assertThat(refused.exitCode()).as(refused.err()).isEqualTo(1);
      assertThat(refused.err()).contains("gave up on " + superlink);

      // the private key alone, as flower-supernode 1.27 takes it; and with its public key
      List<String> a = new ArrayList<>(common);
      a.addAll(List.of("--auth-supernode-private-key", key("nistp384").toString(),
          "--partition", "0/2"));
      List<String> b = new ArrayList<>(common);
      b.addAll(List.of("--auth-supernode-private-key", key("nistp256").toString(),
          "--auth-supernode-public-key", dir.resolve("nistp256.pub").toString(),
          "--partition", "1/2"));
      Process pa = cli(dir.resolve("cli-a.log"), a);
      Process pb = cli(dir.resolve("cli-b.log"), b);
      try {
        d.flwrRun(Duration.ofMinutes(2), "out-file=\"" + out + "\"", "num-server-rounds=2",
            "init-shapes=\"" + shapes + "\"");
        d.await(out, Duration.ofMinutes(4));
        List<String> result = Files.readAllLines(out);
        assertThat(result).contains("TRAIN_ROUNDS 1,2", "EVALUATE_ROUNDS 1,2");
        // FedAvg's model moved away from the zeros it started from
        String p0 = result.stream().filter(l -> l.startsWith("ARRAY p0 float32 ")).findFirst()
            .orElseThrow().substring("ARRAY p0 float32 ".length());
        assertThat(java.util.Arrays.stream(p0.split(",")).mapToDouble(Double::parseDouble)
            .map(Math::abs).max().orElseThrow()).isGreaterThan(0);
        assertThat(pa.isAlive()).isTrue();
        assertThat(pb.isAlive()).isTrue();
      } finally {
        pa.destroy();
        pb.destroy();
        assertThat(pa.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pb.waitFor(60, TimeUnit.SECONDS)).isTrue();
      }
      String aLog = Files.readString(dir.resolve("cli-a.log"));
      assertThat(aLog).contains("joining " + superlink);
      assertThat(Files.readString(d.log("superlink")).split(
          java.util.regex.Pattern.quote("[Fleet.DeactivateNode] Deactivated node_id="), -1))
          .as("two nodes deactivated on SIGTERM").hasSize(3);
    }
  }

  /**
   * A default start ({@code tributary supernode}, HTTP) joining a real SuperLink, and one over
   * grpc-rere, with the JVM options the launcher and the jar's manifest give ({@code
   * --sun-misc-unsafe-memory-access=allow} for protobuf's and Netty's {@code sun.misc.Unsafe},
   * {@code Enable-Native-Access: ALL-UNNAMED} for native libraries): nothing on stderr is a JDK
   * warning.
   */
  @Test
  void supernode_defaultStartOnARealSuperLink_stderrHasNoJdkWarnings() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path root = io.tributary.tensor.testing.PythonEnv.projectRoot();
    assertThat(Files.readString(root.resolve("tributary")))
        .contains("--sun-misc-unsafe-memory-access=allow");
    assertThat(Files.readString(root.resolve("tributary-cli/pom.xml")))
        .contains("<Enable-Native-Access>ALL-UNNAMED</Enable-Native-Access>");
    for (String transport : List.of("http", "grpc-rere")) {
      Path sub = Files.createDirectories(dir.resolve(transport));
      try (FlowerDeployment d = new FlowerDeployment(flower, sub)) {
        List<String> args = new ArrayList<>(List.of("--superlink", d.fleetAddress(),
            "--insecure", "--model", "mclr"));
        if (transport.equals("http")) {
          d.superLinkArgs.addAll(List.of("--fleet-api-type", "rest"));
          args.addAll(List.of("--http-path-prefix", "/api/v0/fleet"));
        } else {
          args.addAll(List.of("--transport", "grpc-rere"));
        }
        d.startSuperLink();
        List<String> cmd = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
            "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
            "supernode"));
        cmd.addAll(args);
        Path err = sub.resolve("stderr.log");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile())
            .redirectOutput(sub.resolve("stdout.log").toFile()).start();
        try {
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
          while (!activated(d) && System.nanoTime() < end && p.isAlive()) {
            Thread.sleep(250);
          }
          assertThat(activated(d)).as("%s\n--- superlink log (alive: %s):\n%s",
              Files.readString(err), d.superLinkAlive(), d.tail(d.log("superlink"))).isTrue();
          Thread.sleep(2000); // a few pulls and the heartbeat's first round
        } finally {
          p.destroy();
          assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        List<String> lines = Files.readAllLines(err);
        assertThat(lines).as(transport).anyMatch(l -> l.contains("joining " + d.fleetAddress()));
        assertThat(lines).as(transport).noneMatch(l -> l.startsWith("WARNING:"));
      }
    }
  }

  /** Whether the SuperLink logged a node's activation (gRPC's handler, or the REST route). */
  private static boolean activated(FlowerDeployment d) throws IOException {
    String log = Files.readString(d.log("superlink"));
    return log.contains("ActivateNode") || log.contains("/activate-node");
  }
}
