package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code --secure-aggregation} options of {@code tributary server} and {@code client}. */
class SecureAggregationOptionsTest {
  @Test
  void serviceLoader_cliClassPath_findsTheSecAggPlusProtocol() {
    // The server finds SecAgg+ on the class path: the CLI (and its shaded jar) must carry it.
    assertThat(ServiceLoader.load(SecureFitProtocol.class).findFirst())
        .hasValueSatisfying(p -> assertThat(p.name()).isEqualTo("SecAgg+"));
  }

  @Test
  void config_secureAggregationWithSettings_reachesTheServerConfig() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "2", "--secure-aggregation", "--secagg-neighbours", "6",
        "--secagg-threshold", "4", "--secagg-bits", "12", "--secagg-clip", "0.5");

    assertThat(c.config().secureAggregation()).contains(new SecureAggregation(6, 4, 12, 0.5,
        SecureAggregation.DEFAULT_EXAMPLE_BITS));
  }

  @Test
  void config_secureAggregationAlone_usesTheDefaults() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "2", "--secure-aggregation");

    assertThat(c.config().secureAggregation()).contains(SecureAggregation.defaults());
  }

  @Test
  void config_secureAggregationWithClientDp_clippingRangeIsTheClipAndClientsClip()
      throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "2", "--secure-aggregation", "--dp", "client", "--noise-multiplier",
        "1", "--clip", "0.25");

    assertThat(c.config().secureAggregation().orElseThrow().clippingRange()).isEqualTo(0.25);
    assertThat(c.config().fitInsConfig()).containsEntry("clipping_norm",
        io.tributary.flower.Scalar.of(0.25));
  }

  @Test
  void config_noSecureAggregation_isEmpty() throws Exception {
    ServerCommand c = new ServerCommand();
    new picocli.CommandLine(c).parseArgs("--address", "127.0.0.1:0", "--rounds", "1",
        "--min-clients", "2");

    assertThat(c.config().secureAggregation()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--secagg-bits 8|the --secagg- options need --secure-aggregation",
      "--secure-aggregation --secagg-neighbours 4 --secagg-threshold 2|the threshold must be in",
      "--secure-aggregation --secagg-clip 0|the clipping range must be positive",
      "--secure-aggregation --dp central --noise-multiplier 1 --clip 1|needs --dp client",
      "--secure-aggregation --dp client --noise-multiplier 1 --clip 2 --secagg-clip 1|"
          + "--secagg-clip 1.0 would clip updates that --clip 2.0 lets through",
      "--secure-aggregation --dp client --noise-multiplier 1 --clip 1 --local-noise-stddev 0.1|"
          + "--local-noise-stddev with --secure-aggregation on a server"})
  void server_badSecureAggregation_exitsTwoWithOneLine(String args, String message) {
    CliRun r = CliRun.of(("server --address h:1 --rounds 1 --min-clients 2 " + args)
        .split(" "));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("tributary server: ")
        .contains(message);
  }

  @Test
  void help_serverAndClient_describeSecureAggregation() {
    assertThat(CliRun.of("server", "--help").out()).contains("--secure-aggregation",
        "--secagg-neighbours", "--secagg-threshold", "--secagg-bits", "--secagg-clip");
    assertThat(CliRun.of("client", "--help").out()).contains("--secure-aggregation");
  }
}
