package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --ui} and {@code --ui-token} on {@code simulate}, {@code server}, {@code supernode}. */
class UiOptionsTest {
  @TempDir Path dir;

  @Test
  void simulate_ui_servesThePageWhileItRunsAndStillWritesTheReport() throws Exception {
    Path out = dir.resolve("run");

    CliRun run = SimulateCommandTest.simulate(out, "--rounds", "2", "--ui", "127.0.0.1:0");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).containsPattern("live view: http://127\\.0\\.0\\.1:[0-9]+/");
    assertThat(Files.readString(out.resolve("report.html"))).contains("final test accuracy");
  }

  @Test
  void simulate_uiOnAnotherHostWithoutToken_exitsTwoNamingTheToken() {
    CliRun run = SimulateCommandTest.simulate(dir.resolve("run"), "--ui", "0.0.0.0:0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().startsWith("tributary simulate: --ui ")
        .contains("needs --ui-token");
  }

  @Test
  void simulate_badUiValues_exitTwoWithOneLine() {
    assertThat(SimulateCommandTest.simulate(dir.resolve("a"), "--ui", "host:").errLines())
        .singleElement().asString().contains("--ui 'host:' has no port");
    assertThat(SimulateCommandTest.simulate(dir.resolve("b"), "--ui-token",
        "abcdefghijklmnopqrstu").errLines()).singleElement().asString()
        .contains("--ui-token applies only with --ui");
    CliRun shortToken = SimulateCommandTest.simulate(dir.resolve("c"), "--ui", "0",
        "--ui-token", "short");
    assertThat(shortToken.exitCode()).isEqualTo(2);
    assertThat(shortToken.errLines()).singleElement().asString().contains("--ui-token: ");
  }

  @Test
  void server_uiWithToken_printsTheAddressAndNotTheToken() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String token = "abcdefghijklmnopqrstuvwxyz";

    CliRun r = CliRun.of("server", "--address", "localhost:" + port, "--rounds", "1",
        "--min-clients", "1", "--client-wait", "0.3", "--out", dir.resolve("run").toString(),
        "--ui", "0.0.0.0:0", "--ui-token", token);

    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).containsPattern("live view: http://127\\.0\\.0\\.1:[0-9]+/ \\(open it "
        + "once with \\?token=TOKEN\\)").doesNotContain(token);
  }

  @Test
  void server_uiOnAnotherHostWithoutToken_exitsTwo() {
    CliRun r = CliRun.of("server", "--address", "localhost:1", "--rounds", "1",
        "--min-clients", "1", "--out", dir.resolve("run").toString(), "--ui", "0.0.0.0:0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("tributary server: --ui ")
        .contains("needs --ui-token");
  }

  @Test
  void supernode_ui_printsTheNodePagesAddressAndServesItUntilTheNodeStops() {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:" + port, "--insecure",
        "--max-retries", "1", "--ui", "127.0.0.1:0");

    // Nothing listens there: the node gives up after one attempt, and its page closes.
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).containsPattern("live view: http://127\\.0\\.0\\.1:[0-9]+/");
    assertThat(r.err()).contains("gave up on 127.0.0.1:" + port);
  }

  @Test
  void supernode_uiOnAnotherHostWithoutToken_exitsTwo() {
    CliRun r = CliRun.of("supernode", "--superlink", "127.0.0.1:1", "--insecure",
        "--ui", "0.0.0.0:0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("tributary supernode: --ui ")
        .contains("needs --ui-token");
  }
}
