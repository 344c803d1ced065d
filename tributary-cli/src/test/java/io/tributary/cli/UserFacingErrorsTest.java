package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every failure a user can cause is one stderr line and a documented exit status, without a
 * Java stack trace unless {@code --verbose} asks for one.
 */
class UserFacingErrorsTest {
  @TempDir Path dir;

  private Path file(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private static void assertOneLine(CliRun r, int status, String... fragments) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(status);
    assertThat(r.errLines()).as(r.err()).hasSize(1);
    assertThat(r.errLines()[0]).contains(fragments);
    assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
  }

  private CliRun server(String... extra) {
    List<String> args = new ArrayList<>(List.of("server", "--address", "127.0.0.1:0",
        "--rounds", "1", "--min-clients", "1", "--out", dir.resolve("run").toString()));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static CliRun client(String server, String... extra) {
    List<String> args = new ArrayList<>(List.of("client", "--server", server));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void server_certificateNotPem_exitsTwoWithOneLine() throws IOException {
    Path cert = file("cert.pem", "just some text\n");
    Path key = file("key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    CliRun r = server("--tls-cert", cert.toString(), "--tls-key", key.toString());
    assertOneLine(r, 2, "tributary server: ", cert.toString(),
        "is not PEM: it holds no PEM certificate");
  }

  @Test
  void server_keyNotPem_exitsTwoWithOneLine() throws IOException {
    Path cert = file("cert.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    Path key = file("key.der", "\u0030\u0082binary");
    CliRun r = server("--tls-cert", cert.toString(), "--tls-key", key.toString());
    assertOneLine(r, 2, key.toString(), "is not PEM: it holds no PEM private key");
  }

  @Test
  void server_pemBlocksThatDoNotParse_exitsTwoWithOneLine() throws IOException {
    Path cert = file("cert.pem", "-----BEGIN CERTIFICATE-----\nnot base64!\n"
        + "-----END CERTIFICATE-----\n");
    Path key = file("key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    CliRun r = server("--tls-cert", cert.toString(), "--tls-key", key.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.errLines()).as(r.err()).hasSize(1);
    assertThat(r.errLines()[0]).startsWith("tributary server: ").contains("TLS");
    assertThat(r.err()).doesNotContain("\tat ");
  }

  @Test
  void server_unknownHost_exitsTwoWithOneLine() {
    CliRun r = CliRun.of("server", "--address", "no-such-host.invalid:8080", "--rounds", "1",
        "--min-clients", "1", "--out", dir.resolve("run").toString());
    assertOneLine(r, 2, "--address: unknown host 'no-such-host.invalid'");
  }

  @Test
  void server_addressWithoutPort_exitsTwoWithOneLine() {
    CliRun r = CliRun.of("server", "--address", "localhost", "--rounds", "1",
        "--min-clients", "1", "--out", dir.resolve("run").toString());
    assertOneLine(r, 2, "--address must be HOST:PORT, got 'localhost': no port");
  }

  @Test
  void client_serverWithoutPort_exitsTwoWithOneLine() {
    assertOneLine(client("localhost"), 2,
        "tributary client: --server must be HOST:PORT, got 'localhost': no port");
  }

  @Test
  void client_unknownHost_exitsTwoWithOneLine() {
    assertOneLine(client("no-such-host.invalid:8080"), 2,
        "tributary client: --server: unknown host 'no-such-host.invalid'");
  }

  @Test
  void client_tlsFilesNotPem_exitTwoWithOneLine() throws IOException {
    Path text = file("notes.txt", "hello\n");
    Path cert = file("cert.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    assertOneLine(client("localhost:1", "--tls-ca", text.toString()), 2,
        "TLS CA file " + text, "is not PEM: it holds no PEM certificate");
    assertOneLine(client("localhost:1", "--tls-ca", cert.toString(), "--tls-cert",
        text.toString(), "--tls-key", text.toString()), 2, "TLS certificate file " + text);
    assertOneLine(client("localhost:1", "--tls-ca", cert.toString(), "--tls-cert",
        cert.toString(), "--tls-key", text.toString()), 2, "TLS key file " + text,
        "is not PEM: it holds no PEM private key");
  }

  @Test
  void client_verbose_printsTheStackTraceAfterTheLine() {
    CliRun r = client("no-such-host.invalid:8080", "--verbose");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()[0]).isEqualTo(
        "tributary client: --server: unknown host 'no-such-host.invalid'");
    assertThat(r.errLines().length).isGreaterThan(1);
    assertThat(r.err()).contains("IllegalArgumentException").contains("UnknownHostException")
        .contains("\tat ");
  }

  @Test
  void server_verbose_printsTheStackTraceAfterTheLine() throws IOException {
    Path cert = file("cert.pem", "just some text\n");
    Path key = file("key.pem", "just some text\n");
    CliRun r = server("--tls-cert", cert.toString(), "--tls-key", key.toString(), "--verbose");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()[0]).contains("is not PEM: it holds no PEM certificate");
    assertThat(r.err()).contains("\tat ");
  }

  @Test
  void server_badExampleBoundOptions_exitTwoWithOneLine() {
    assertOneLine(server("--max-examples-per-client", "0"), 2,
        "--max-examples-per-client must be at least 1, got 0");
    assertOneLine(server("--algorithm", "hierfavg"), 2,
        "hierfavg aggregates through edges, which a server's round does not have");
    assertOneLine(server("--max-examples-over-median", "0.5"), 2,
        "--max-examples-over-median must be 0 (off) or 1 to 1e12, got 0.5");
    assertOneLine(server("--over-max-examples", "drop"), 2,
        "--over-max-examples must be clip or exclude, got 'drop'");
    assertOneLine(server("--round-timeout", "-1"), 2, "--round-timeout");
  }

  @Test
  void server_options_reachTheServerConfig() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1", "--max-examples-per-client", "500", "--over-max-examples",
        "exclude", "--round-timeout", "0");
    var config = c.config();
    assertThat(config.maxExamplesPerClient()).isEqualTo(500);
    assertThat(config.overMaxExamples())
        .isEqualTo(io.tributary.runtime.RuntimeOptions.WeightPolicy.EXCLUDE);
    assertThat(config.roundTimeout()).isEmpty();
    ServerCommand d = new ServerCommand();
    new picocli.CommandLine(d).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "1");
    assertThat(d.config().roundTimeout()).contains(java.time.Duration.ofMinutes(10));
    assertThat(d.config().maxExamplesPerClient()).isEqualTo(1_000_000_000L);
  }
}
