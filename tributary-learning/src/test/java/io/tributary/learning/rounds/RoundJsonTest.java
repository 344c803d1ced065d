package io.tributary.learning.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One JSON line per round, for a simulator's rounds and a server's. */
class RoundJsonTest {
  static Stream<RoundRecord> rounds() {
    return Stream.of(
        new RoundRecord(1, 0.5, 0.25, 0.75, 0.125, 0.1, 5, 100, 0, 0.01, 10, 20),
        new RoundRecord(7, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            1e-300, 3.0, 5, 0, 2, 123.5, 0, 40,
            List.of("client 3 failed: \"quoted\" \\ back\nline", "client 9 sent \"round\": 99"),
            3, new TreeMap<>(Map.of("server_lr", 0.01))),
        RoundRecord.federated(2, 2.25, 0.5, 3, 60, 0, 1.5, 100, 200, List.of(), 0,
            new TreeMap<>()),
        RoundRecord.federated(3, Double.NaN, Double.NaN, 2, 0, 3, 0.5, 1, 2,
            List.of("fit: client 0 (c-1) failed: gone", "evaluate: client 1 (c-2) failed",
                "fit: aggregate refused, model unchanged: x"), 1,
            new TreeMap<>(Map.of("server_lr", 0.5))));
  }

  @ParameterizedTest
  @MethodSource("rounds")
  void parse_lineToJsonWrote_givesTheRoundBack(RoundRecord r) {
    assertThat(RoundJson.parse(RoundJson.toJson(r))).isEqualTo(r);
  }

  @Test
  void toJson_centralRound_writesTheSimulatorsKeysAndNoEvalLoss() {
    RoundRecord r = new RoundRecord(1, 0.5, 0.25, Double.NaN, 0.125, 0.1, 5, 100, 0, 0.01, 10,
        20);
    assertThat(RoundJson.toJson(r)).isEqualTo("{\"round\": 1, \"train_loss\": 0.5, "
        + "\"train_accuracy\": 0.25, \"test_loss\": \"NaN\", \"test_accuracy\": 0.125, "
        + "\"client_loss\": 0.1, \"clients\": 5, \"examples\": 100, \"failures\": 0, "
        + "\"seconds\": 0.01, \"bytes_up\": 10, \"bytes_down\": 20}");
  }

  @Test
  void toJson_federatedRoundWithoutReportedLoss_writesNullAndNoCentralKeys() {
    RoundRecord r = RoundRecord.federated(4, Double.NaN, 0.25, 3, 60, 4, 1.0, 10, 20,
        List.of(), 0, new TreeMap<>());
    assertThat(RoundJson.toJson(r)).isEqualTo("{\"round\": 4, \"client_loss\": null, "
        + "\"eval_loss\": 0.25, \"clients\": 3, \"examples\": 60, \"failures\": 4, "
        + "\"seconds\": 1.0, \"bytes_up\": 10, \"bytes_down\": 20}");
    assertThat(RoundJson.parse(RoundJson.toJson(r)).clientLoss()).isNaN();
  }

  @Test
  void federated_centralFigure_isRefused() {
    assertThatThrownBy(() -> new RoundRecord(1, RoundRecord.EvaluationKind.FEDERATED, 0.5,
        Double.NaN, Double.NaN, Double.NaN, 0.1, 0.2, 1, 1, 0, 0.1, 0, 0, List.of(), 0,
        new TreeMap<>())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FEDERATED");
  }

  @Test
  void parse_lineWithoutAKey_isRefusedNamingIt() {
    assertThatThrownBy(() -> RoundJson.parse("{\"round\": 1, \"client_loss\": 0.5}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no eval_loss");
  }
}
