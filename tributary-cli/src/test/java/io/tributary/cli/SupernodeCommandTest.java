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
        "--max-retries", "--model", "--dataset", "--partition")) {
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
            "--partition"));
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
}
