package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** simulate's --dp flags: a bad value exits 2 with one line naming the flag; a run reports it. */
class DpOptionsTest {
  @TempDir Path dir;

  static Stream<Arguments> bad() {
    return Stream.of(
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "0"},
            "--clip must be positive"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "-1"},
            "--clip must be positive"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "0", "--clip", "1"},
            "--noise-multiplier must be positive"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "-2", "--clip", "1"},
            "--noise-multiplier must be positive"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--delta", "0"}, "--delta must be in (0, 1)"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--delta", "1.5"}, "--delta must be in (0, 1)"),
        Arguments.of(new String[] {"--dp", "both", "--noise-multiplier", "1", "--clip", "1"},
            "--dp must be central or client"),
        Arguments.of(new String[] {"--dp", "central", "--clip", "1"},
            "--dp needs --noise-multiplier"),
        Arguments.of(new String[] {"--noise-multiplier", "1"},
            "--noise-multiplier applies only with --dp"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--target-quantile", "0.3"}, "--target-quantile applies only with --adaptive-clip"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--adaptive-clip", "--target-quantile", "2"}, "--target-quantile must be in [0, 1]"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--adaptive-clip"}, "--clipped-count-stddev must be above --noise-multiplier / 2"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--local-noise-stddev", "0.1"}, "--local-noise-stddev applies only to --dp client"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--algorithm", "fedmedian"}, "--dp replaces the mean"),
        Arguments.of(new String[] {"--secure-aggregation"},
            "--secure-aggregation in a simulation needs --dp client"),
        Arguments.of(new String[] {"--dp", "central", "--noise-multiplier", "1", "--clip", "1",
            "--secure-aggregation"}, "--secure-aggregation needs --dp client"),
        Arguments.of(new String[] {"--dp", "client", "--noise-multiplier", "1", "--clip", "1",
            "--secagg-bits", "12"}, "the --secagg- options need --secure-aggregation"),
        Arguments.of(new String[] {"--dp", "client", "--noise-multiplier", "1", "--clip", "1",
            "--secure-aggregation", "--secagg-bits", "50"}, "--secagg-bits must be 1 to 42"),
        Arguments.of(new String[] {"--dp", "client", "--noise-multiplier", "1", "--clip", "1",
            "--secure-aggregation", "--secagg-neighbours", "4", "--secagg-threshold", "2"},
            "--secagg-threshold must be in (4/2, 4]"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("bad")
  void simulate_badDpValue_printsOneLineNamingTheFlagAndExitsTwo(String[] args, String message) {
    String[] full = new String[args.length + 3];
    full[0] = "simulate";
    System.arraycopy(args, 0, full, 1, args.length);
    full[args.length + 1] = "--out";
    full[args.length + 2] = dir.resolve("never").toString();

    CliRun run = CliRun.of(full);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines()[0]).startsWith("tributary simulate: ").contains(message);
    assertThat(dir.resolve("never")).doesNotExist();
  }

  @Test
  void simulate_seededDp_warnsAndPrintsEpsilonAndWritesItPerRound() throws Exception {
    Path out = dir.resolve("run");
    CliRun run = CliRun.of("simulate", "--model", "mclr", "--clients", "6",
        "--clients-per-round", "3", "--rounds", "2", "--threads", "1", "--dp", "client",
        "--noise-multiplier", "0.8", "--clip", "0.5", "--delta", "1e-6",
        "--insecure-seeded-noise", "--out", out.toString());

    assertThat(run.exitCode()).isEqualTo(0);
    assertThat(run.err()).contains("WARNING: --insecure-seeded-noise")
        .contains("NO differential privacy");
    assertThat(run.out()).containsPattern("privacy: epsilon [0-9.]+ at delta 1.0e-6 after 2 "
        + "rounds");
    String metrics = Files.readString(out.resolve("metrics.jsonl"));
    assertThat(metrics.lines()).hasSize(2)
        .allMatch(l -> l.matches(".*\"algorithm_metrics\": \\{\"clip_norm\": 0.5, \"epsilon\": "
            + "[0-9.]+, \"noise_stddev\": [0-9.]+}.*"));
    assertThat(Files.readString(out.resolve("report.html"))).contains("privacy spent (epsilon)")
        .contains("Privacy spent");
    assertThat(Files.readString(out.resolve("config.json"))).contains("--dp client");
  }
}
