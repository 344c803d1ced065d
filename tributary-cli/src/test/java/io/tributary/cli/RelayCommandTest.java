package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerMemory;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RelayCommandTest {
  @Test
  void help_listsEveryOption() {
    CliRun r = CliRun.of("relay", "--help");

    assertThat(r.exitCode()).isZero();
    for (String flag : List.of("--upstream", "--address", "--min-clients", "--client-wait",
        "--round-timeout", "--min-success-fraction", "--max-examples-per-client",
        "--over-max-examples", "--tls-cert", "--tls-key", "--tls-client-ca", "--auth-tokens",
        "--upstream-tls-ca", "--upstream-tls-cert", "--upstream-tls-key",
        "--upstream-auth-token", "--tensor-types", "--max-message-size", "--edge-rounds",
        "--fleet-api-address", "--fleet-api-type", "--app", "--supernode-keys",
        "--secure-aggregation", "--secagg-neighbours", "--secagg-threshold", "--secagg-bits",
        "--secagg-clip", "--read-ahead-mb", "--flow-control-window-kb",
        "--max-concurrent-clients")) {
      assertThat(r.out()).contains(flag);
    }
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.of(new String[] {}, "--upstream"),
        Arguments.of(new String[] {"--upstream", "server"}, "--upstream must be HOST:PORT"),
        Arguments.of(new String[] {"--upstream", "h:1", "--address", "x:99999"}, "--address"),
        Arguments.of(new String[] {"--upstream", "h:1", "--min-clients", "0"}, "at least 1"),
        Arguments.of(new String[] {"--upstream", "h:1", "--client-wait", "-1"}, "--client-wait"),
        Arguments.of(new String[] {"--upstream", "h:1", "--min-success-fraction", "2"},
            "success fraction"),
        Arguments.of(new String[] {"--upstream", "h:1", "--over-max-examples", "drop"},
            "--over-max-examples"),
        Arguments.of(new String[] {"--upstream", "h:1", "--tls-cert", "c.pem"}, "--tls-key"),
        Arguments.of(new String[] {"--upstream", "h:1", "--upstream-tls-cert", "c.pem"},
            "--upstream-tls-key"),
        Arguments.of(new String[] {"--upstream", "h:1", "--auth-tokens", "/no/such/tokens"},
            "/no/such/tokens"),
        Arguments.of(new String[] {"--upstream", "h:1", "--upstream-auth-token", "a b"},
            "--upstream-auth-token"),
        Arguments.of(new String[] {"--upstream", "no-such-host.invalid:1"}, "unknown host"),
        Arguments.of(new String[] {"--upstream", "h:1", "--edge-rounds", "0"},
            "--edge-rounds must be 1 to 1000, got 0"),
        Arguments.of(new String[] {"--upstream", "h:1", "--fleet-api-address", "localhost:0"},
            "--fleet-api-address needs --app"),
        Arguments.of(new String[] {"--upstream", "h:1", "--app", "/no/such/app"},
            "--app needs --fleet-api-address"),
        Arguments.of(new String[] {"--upstream", "h:1", "--fleet-api-address", "localhost:0",
            "--app", "/no/such/app"}, "--app"),
        Arguments.of(new String[] {"--upstream", "h:1", "--read-ahead-mb", "0"},
            "--read-ahead-mb must be 1 to 2047, got 0"),
        Arguments.of(new String[] {"--upstream", "h:1", "--flow-control-window-kb", "32"},
            "--flow-control-window-kb must be 64 to 65536, got 32"),
        Arguments.of(new String[] {"--upstream", "h:1", "--max-concurrent-clients", "0"},
            "--max-concurrent-clients"),
        Arguments.of(new String[] {"--upstream", "h:1", "--secagg-bits", "8"},
            "the --secagg- options need --secure-aggregation"),
        Arguments.of(new String[] {"--upstream", "h:1", "--secure-aggregation",
            "--secagg-neighbours", "4", "--secagg-threshold", "1"}, "threshold"),
        Arguments.of(new String[] {"--upstream", "h:1", "--secure-aggregation",
            "--secagg-max-weight", "10"}, "--secagg-max-weight"),
        Arguments.of(new String[] {"--upstream", "h:1", "--secure-aggregation",
            "--fleet-api-address", "localhost:0", "--app", "/no/such/app"},
            "--secure-aggregation with --fleet-api-address"),
        Arguments.of(new String[] {"--upstream", "localhost:1", "--upstream-tls-ca",
            "/no/such/ca.pem", "--address", "localhost:0"}, "/no/such/ca.pem"));
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void call_badInput_exitsTwoWithOneLine(String[] args, String named) {
    String[] all = Stream.concat(Stream.of("relay"), Stream.of(args)).toArray(String[]::new);

    CliRun r = CliRun.of(all);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines()[0]).startsWith("tributary relay: ").contains(named);
  }

  @Test
  void config_secureAggregation_carriesTheServersSecAggSettings() throws Exception {
    RelayCommand c = new RelayCommand();
    new picocli.CommandLine(c).parseArgs("--upstream", "localhost:1", "--secure-aggregation",
        "--secagg-neighbours", "4", "--secagg-threshold", "3", "--secagg-bits", "12",
        "--secagg-clip", "2.5");

    assertThat(c.config().secureAggregation()).contains(new SecureAggregation(4, 3, 12, 2.5,
        SecureAggregation.DEFAULT_EXAMPLE_BITS));
  }

  @Test
  void config_memoryAndWorkerOptions_reachTheRelayConfig() throws Exception {
    RelayCommand c = new RelayCommand();
    new picocli.CommandLine(c).parseArgs("--upstream", "localhost:1", "--read-ahead-mb", "16",
        "--flow-control-window-kb", "128", "--max-concurrent-clients", "3");

    assertThat(c.config().readAheadBytes()).isEqualTo(16 << 20);
    assertThat(c.config().flowControlWindow()).isEqualTo(128 << 10);
    assertThat(c.config().maxConcurrentClients()).isEqualTo(3);
  }

  @Test
  void config_noMemoryOptions_sizesThemFromTheHeapAndMinClients() throws Exception {
    RelayCommand c = new RelayCommand();
    new picocli.CommandLine(c).parseArgs("--upstream", "localhost:1", "--min-clients", "10");
    ServerMemory heap = ServerMemory.ofThisJvm();

    assertThat(c.config().memory()).isEqualTo(heap);
    assertThat(c.config().readAheadBytes()).isEqualTo(heap.readAheadBytes());
    assertThat(c.config().flowControlWindow()).isEqualTo(heap.flowControlWindow(10));
  }

  @Test
  void config_noSecureAggregation_plainEdgeRounds() throws Exception {
    RelayCommand c = new RelayCommand();
    new picocli.CommandLine(c).parseArgs("--upstream", "localhost:1");

    assertThat(c.config().secureAggregation()).isEmpty();
  }
}
