package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code supernode} command's options; the SuperNode itself is tested against a real Flower
 * SuperLink in tributary-flower's {@code RealSuperLinkTest}.
 */
class SupernodeCommandTest {
  @Test
  void help_listsFlowerSupernodesFlags() {
    CliRun r = CliRun.of("supernode", "--help");

    assertThat(r.exitCode()).isZero();
    for (String flag : List.of("--superlink", "--insecure", "--root-certificates",
        "--auth-supernode-private-key", "--auth-supernode-public-key", "--node-config",
        "--max-retries", "--model", "--dataset", "--partition", "--transport",
        "--http-path-prefix", "--max-message-bytes", "--max-inflated-bytes", "--max-elements",
        "--train-metric", "--evaluate-metric", "--no-client-passes", "--verbose")) {
      assertThat(r.out()).contains(flag);
    }
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.of(new String[] {"--insecure"}, "--superlink"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--root-certificates",
            "/no/such.pem"}, "exclude"),
        Arguments.of(new String[] {"--superlink", "h:1", "--root-certificates",
            "/no/such.pem"}, "/no/such.pem"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure",
            "--auth-supernode-public-key", "k.pub"}, "needs --auth-supernode-private-key"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure",
            "--auth-supernode-private-key", "/no/such/key"}, "/no/such/key is not a readable"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--node-config",
            "k=1 oops"}, "oops"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--partition", "3/2"},
            "--partition"),
        Arguments.of(new String[] {"--superlink", "localhost", "--insecure"}, "no port"),
        Arguments.of(new String[] {"--superlink", "h:99999", "--insecure"}, "[1, 65535]"),
        Arguments.of(new String[] {"--superlink", "h:-1", "--insecure"}, "[1, 65535]"),
        Arguments.of(new String[] {"--superlink", "abc", "--insecure"}, "--superlink"),
        Arguments.of(new String[] {"--superlink", "[::1", "--insecure"}, "']'"),
        Arguments.of(new String[] {"--superlink", "::1:9092", "--insecure"}, "brackets"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--max-retries", "-1"},
            "--max-retries must be at least 1"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--transport", "smoke"},
            "unknown transport 'smoke'"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--transport", "grpc-rere",
            "--http-path-prefix", "/v1/fleet"}, "needs the http transport"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--http-path-prefix",
            "v1 fleet"}, "path prefix"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--max-inflated-bytes",
            "-5"}, "--max-inflated-bytes"),
        Arguments.of(new String[] {"--superlink", "h:1", "--root-certificates",
            emptyFile()}, "holds no PEM certificate"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--node-config",
            "partition-id=5 num-partitions=2"}, "partition-id 5 is not in"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--app", "no.such.App"},
            "--app: no loadable class no.such.App"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--app",
            "java.lang.String"}, "does not implement io.tributary.flower.app.ClientAppProvider"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--app", "x.Y",
            "--classpath", "/no/such.jar"}, "--classpath: /no/such.jar is not a jar or folder"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--node-config",
            "partition-id=1"}, "must both be given"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--partition", "0/2",
            "--node-config", "partition-id=1 num-partitions=2"}, "disagrees"),
        Arguments.of(new String[] {"--superlink", "h:1", "--root-certificates",
            notPem()}, "holds no PEM certificate"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--train-metric",
            "m=[loss"}, "--train-metric/--evaluate-metric: metric 'm': a list source ends"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--evaluate-metric",
            "a", "--evaluate-metric", "a=loss"}, "given twice"),
        Arguments.of(new String[] {"--superlink", "h:1", "--insecure", "--app", "x.Y",
            "--train-metric", "a"}, "a --app ClientApp chooses its own"));
  }

  static String emptyFile() {
    try {
      java.nio.file.Path p = java.nio.file.Files.createTempFile("empty", ".pem");
      p.toFile().deleteOnExit();
      return p.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String notPem() {
    try {
      java.nio.file.Path p = java.nio.file.Files.createTempFile("garbage", ".pem");
      java.nio.file.Files.writeString(p, "this is not a certificate\n");
      p.toFile().deleteOnExit();
      return p.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void call_badInput_exitsTwoWithOneLine(String[] args, String named) {
    String[] all = Stream.concat(Stream.of("supernode"), Stream.of(args))
        .toArray(String[]::new);

    CliRun r = CliRun.of(all);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines()[0]).startsWith("tributary supernode: ").contains(named);
  }

  @Test
  void call_partitionInNodeConfig_trainsThatPartitionAsFlowersExamplesName() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:" + port, "--insecure",
        "--max-retries", "1", "--node-config", "partition-id=1 num-partitions=3");

    assertThat(r.err()).contains("partition 1/3 of");
  }

  @Test
  void call_appClass_servesTheUsersClientAppInsteadOfTheTrainer() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:" + port, "--insecure",
        "--max-retries", "1", "--app", EchoClientAppProvider.class.getName());

    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.err()).contains("ClientApp " + EchoClientAppProvider.class.getName()
        + " handling [train]", "gave up on 127.0.0.1:" + port);
  }

  @Test
  void call_superlinkNeverThere_givesUpAfterMaxRetriesWithOne() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:" + port, "--insecure",
        "--max-retries", "1");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("gave up on 127.0.0.1:" + port);
  }

  @Test
  void call_insecureAgainstATlsSuperLink_exitsOneSayingSoInOneLine(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) throws Exception {
    io.tributary.flower.testing.Certificates.Pem pem = io.tributary.flower.testing.Certificates
        .authority("test CA").issue(dir, "superlink");
    io.grpc.Server tls = io.grpc.Grpc.newServerBuilderForPort(0, io.grpc.TlsServerCredentials
        .create(pem.cert().toFile(), pem.key().toFile())).build().start();
    try {
      CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:" + tls.getPort(),
          "--insecure", "--model", "mclr");

      assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
      assertThat(java.util.Arrays.stream(r.errLines()).filter(l -> l.contains("speaks TLS")))
          .singleElement().asString().startsWith("tributary supernode: the SuperLink 127.0.0.1:"
              + tls.getPort() + " speaks TLS");
    } finally {
      tls.shutdownNow();
    }
  }
}
