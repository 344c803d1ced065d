package io.tributary.learning.rounds.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code metrics.jsonl} lines read back, as a resumed run reads its earlier rounds. */
class MetricsLogTest {
  static Stream<RoundRecord> rounds() {
    return Stream.of(
        new RoundRecord(1, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 0, 0.01, 10, 20),
        new RoundRecord(7, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            1e-300, 3.0, 5, 0, 2, 123.5, 0, 40,
            List.of("client 3 failed: \"quoted\" \\ back\nline", "client 4: \u00e9 \u2028 end",
                "client 9 sent \"round\": 99"), 3, new TreeMap<>()),
        new RoundRecord(2, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 0, 0.01, 10, 20, List.of(), 0,
            new TreeMap<>(Map.of("server_lr", 0.01, "odd \"name\", }", Double.NaN,
                "epsilon", 1e-300))));
  }

  @ParameterizedTest
  @MethodSource("rounds")
  void parse_lineThisLogWrote_givesTheRoundBack(RoundRecord r) throws Exception {
    assertThat(MetricsLog.parse(MetricsLog.toJson(r))).isEqualTo(r);
  }

  @Test
  void parse_brokenLine_isRefusedNamingTheFile() {
    assertThatThrownBy(() -> MetricsLog.parse("{\"round\": 1, \"train_loss\": 0.5}"))
        .isInstanceOf(RunFileException.class).hasMessageContaining("metrics.jsonl")
        .hasMessageContaining("no train_accuracy");
    String line = MetricsLog.toJson(new RoundRecord(1, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 1,
        0.01, 10, 20, List.of("x"), 0, new TreeMap<>()));
    assertThatThrownBy(() -> MetricsLog.parse(line.substring(0, line.indexOf("\"x") + 1) + "\\"))
        .isInstanceOf(RunFileException.class);
  }

  @Test
  void parse_serversLine_isRefusedAsNotASimulationsRound() {
    String line = MetricsLog.toJson(RoundRecord.federated(1, 0.5, 0.25, 2, 10, 0, 1.0, 1, 2,
        List.of(), 0, new TreeMap<>()));
    assertThatThrownBy(() -> MetricsLog.parse(line)).isInstanceOf(RunFileException.class)
        .hasMessageContaining("not a round of tributary simulate");
  }

  @Test
  void metricsLog_roundWithFailures_writesTheReasonsAndTheCount() {
    var m = new RoundRecord(1, 0.5, 0.8, 0.6, 0.875, 0.7, 5, 100, 1,
        1.0, 10, 10, List.of("client 2 failed: NaN"), 1, new TreeMap<>());
    assertThat(MetricsLog.toJson(m)).endsWith(
        "\"bytes_down\": 10, \"nonfinite_metrics\": 1, \"failure_reasons\": "
            + "[\"client 2 failed: NaN\"]}");
    var clean = new RoundRecord(1, 0.5, 0.8, 0.6, 0.875, 0.7, 5, 100,
        0, 1.0, 10, 10);
    assertThat(MetricsLog.toJson(clean)).endsWith("\"bytes_down\": 10}");
  }

  private static String line(int round) {
    return MetricsLog.toJson(RoundRecord.federated(round, 0.5, 0.25, 2, 10, 0, 1.0, 1, 2,
        List.of(), 0, new TreeMap<>()));
  }

  @Test
  void resume_killedAfterTheCheckpointBeforeItsLine_restoresTheLineFromTheCheckpoint(
      @TempDir Path dir) throws IOException {
    Path file = dir.resolve(MetricsLog.FILE);
    // Rounds 1-2 written, round 3's line half-written when the run was killed.
    Files.writeString(file, line(1) + "\n" + line(2) + "\n" + line(3).substring(0, 20));

    MetricsLog.Resumed r = MetricsLog.resume(file, 3, Optional.of(line(3)));
    try (MetricsLog log = r.log()) {
      log.write(RoundRecord.federated(4, 0.5, 0.25, 2, 10, 0, 1.0, 1, 2, List.of(), 0,
          new TreeMap<>()));
    }

    assertThat(r.kept()).containsExactly(line(1), line(2), line(3));
    assertThat(Files.readAllLines(file)).containsExactly(line(1), line(2), line(3), line(4));
  }

  @Test
  void resume_logHoldsTheCheckpointsRound_keepsTheLogsLine(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve(MetricsLog.FILE);
    Files.writeString(file, line(1) + "\n" + line(2) + "\n" + line(3) + "\n");

    MetricsLog.Resumed r = MetricsLog.resume(file, 2, Optional.of(line(2)));
    r.log().close();

    assertThat(Files.readAllLines(file)).containsExactly(line(1), line(2));
  }

  @Test
  void resume_logTwoLinesShort_isRefusedAndLeftAsItWas(@TempDir Path dir) throws IOException {
    Path file = dir.resolve(MetricsLog.FILE);
    Files.writeString(file, line(1) + "\n");

    assertThatThrownBy(() -> MetricsLog.resume(file, 3, Optional.of(line(3))))
        .isInstanceOf(RunFileException.class).hasMessageContaining("holds 1 complete rounds");
    assertThat(Files.readAllLines(file)).containsExactly(line(1));
  }

  @Test
  void read_checkpointsLineOfAnotherRound_isRefused(@TempDir Path dir) throws IOException {
    Path file = dir.resolve(MetricsLog.FILE);
    Files.writeString(file, line(1) + "\n");

    assertThatThrownBy(() -> MetricsLog.read(file, 2, RoundRecord.EvaluationKind.FEDERATED,
        Optional.of(line(5)))).isInstanceOf(RunFileException.class)
        .hasMessageContaining("is not round 2");
    assertThat(MetricsLog.read(file, 2, RoundRecord.EvaluationKind.FEDERATED,
        Optional.of(line(2)))).extracting(RoundRecord::round).containsExactly(1, 2);
  }
}
