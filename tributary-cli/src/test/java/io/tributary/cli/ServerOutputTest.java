package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's {@code metrics.jsonl} lines. */
class ServerOutputTest {
  @Test
  void serverOutput_roundWithFailuresAndNonFiniteMetrics_writesThemToMetricsJsonl() {
    var m = new io.tributary.flower.server.RoundMetrics(2, 3, 1,
        java.util.OptionalDouble.of(0.5), java.util.OptionalDouble.empty(), 1.0, 10, 20,
        List.of("fit: client 1 (c-2) failed: not finite"), 2);
    assertThat(ServerOutput.toJson(m)).contains("\"failures\": 1").endsWith(
        "\"bytes_down\": 20, \"nonfinite_metrics\": 2, \"failure_reasons\": "
            + "[\"fit: client 1 (c-2) failed: not finite\"]}");
    var clean = new io.tributary.flower.server.RoundMetrics(2, 3, 0,
        java.util.OptionalDouble.of(0.5), java.util.OptionalDouble.empty(), 1.0, 10, 20,
        List.of(), 0);
    assertThat(ServerOutput.toJson(clean)).endsWith("\"bytes_down\": 20}");
  }
}
