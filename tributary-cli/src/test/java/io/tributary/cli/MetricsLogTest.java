package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.cli.report.RoundMetrics;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code metrics.jsonl} lines read back, as a resumed run reads its earlier rounds. */
class MetricsLogTest {
  static Stream<RoundMetrics> rounds() {
    return Stream.of(
        new RoundMetrics(1, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 0, 0.01, 10, 20),
        new RoundMetrics(7, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            1e-300, 3.0, 5, 0, 2, 123.5, 0, 40,
            List.of("client 3 failed: \"quoted\" \\ back\nline", "client 4: \u00e9 \u2028 end",
                "client 9 sent \"round\": 99"), 3));
  }

  @ParameterizedTest
  @MethodSource("rounds")
  void parse_lineThisLogWrote_givesTheRoundBack(RoundMetrics r) throws Exception {
    assertThat(MetricsLog.parse(MetricsLog.toJson(r))).isEqualTo(r);
  }

  @Test
  void parse_brokenLine_isRefusedNamingTheFile() {
    assertThatThrownBy(() -> MetricsLog.parse("{\"round\": 1, \"train_loss\": 0.5}"))
        .isInstanceOf(TensorFileException.class).hasMessageContaining("metrics.jsonl")
        .hasMessageContaining("no train_accuracy");
    String line = MetricsLog.toJson(new RoundMetrics(1, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 1,
        0.01, 10, 20, List.of("x"), 0));
    assertThatThrownBy(() -> MetricsLog.parse(line.substring(0, line.indexOf("\"x") + 1) + "\\"))
        .isInstanceOf(TensorFileException.class);
  }
}
