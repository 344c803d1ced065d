package io.tributary.learning.rounds.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FederatedReportTest {
  static List<RoundRecord> rounds(int n, boolean accuracy) {
    List<RoundRecord> out = new ArrayList<>();
    for (int r = 1; r <= n; r++) {
      TreeMap<String, Double> metrics = new TreeMap<>();
      if (accuracy) {
        metrics.put("evaluate_accuracy", 0.5 + 0.04 * r);
        metrics.put("fit_accuracy", 0.45 + 0.04 * r);
      }
      out.add(RoundRecord.federated(r, 1.5 / r, 1.25 / r, 3, 300, r == 2 ? 1 : 0, 0.5,
          2000L * r, 2100L * r, List.of(), 0, metrics));
    }
    return out;
  }

  static SequencedMap<String, String> settings() {
    SequencedMap<String, String> s = new LinkedHashMap<>();
    s.put("algorithm", "fedavg");
    s.put("address", "0.0.0.0:8080");
    return s;
  }

  @Test
  void render_federatedRounds_chartsLossAndFailuresWithOneRowPerRound() {
    String html = HtmlReport.render("server", "completed 4 rounds", settings(),
        rounds(4, false));

    assertThat(count(html, "<svg ")).isEqualTo(2);
    assertThat(html).contains("aria-label=\"Loss\"").contains("aria-label=\"Failures\"")
        .doesNotContain("aria-label=\"Accuracy\"").doesNotContain("test accuracy");
    // Loss: evaluation and client training loss; failures: one line.
    assertThat(count(html, "<g class=\"series\"")).isEqualTo(3);
    assertThat(html).contains("evaluation (clients)").contains("clients while training");
    assertThat(count(html, "<tr><td class=\"n\">")).isEqualTo(4);
    assertThat(html).contains("<tr><td class=\"n\">3</td><td class=\"n\">0.5000</td>"
        + "<td class=\"n\">0.4167</td><td class=\"n\">3</td><td class=\"n\">300</td>"
        + "<td class=\"n\">0</td>");
    assertThat(html).contains("0.3125</div><div class=\"k\">final evaluation loss")
        .contains("lowest evaluation loss (round 4)").contains("client failures")
        .contains("<tr><th>address</th><td>0.0.0.0:8080</td></tr>");
    assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("src=");
  }

  @Test
  void render_clientsReportAccuracy_addsTheAccuracyChartAndColumns() {
    String html = HtmlReport.render("server", "completed", settings(), rounds(3, true));

    assertThat(count(html, "<svg ")).isEqualTo(3);
    assertThat(html).contains("aria-label=\"Accuracy\"")
        .contains("<th>evaluate accuracy</th>").contains("<th>fit accuracy</th>")
        .contains("62.00%</div><div class=\"k\">final evaluation accuracy");
    assertThat(count(html, "<g class=\"series\"")).isEqualTo(5);
  }

  @Test
  void render_epsilon_addsThePrivacyChart() {
    List<RoundRecord> rounds = new ArrayList<>();
    for (RoundRecord r : rounds(3, false)) {
      rounds.add(r.withAlgorithmMetrics(Map.of("epsilon", 0.5 * r.round())));
    }
    String html = HtmlReport.render("server", "completed", settings(), rounds);

    assertThat(count(html, "<svg ")).isEqualTo(3);
    assertThat(html).contains("aria-label=\"Privacy spent\"")
        .contains("privacy spent (epsilon)");
  }

  @Test
  void render_noFederatedRounds_showsTheServersChartsEmpty() {
    String html = HtmlReport.render("server", "stopped before round 1", settings(), List.of(),
        EvaluationKind.FEDERATED);

    assertThat(html).contains("aria-label=\"Failures\"").contains("no data")
        .contains("0 rounds").doesNotContain("test accuracy");
  }

  @Test
  void render_roundOfTheOtherKind_isRefused() {
    assertThatThrownBy(() -> HtmlReport.render("t", "completed", settings(),
        HtmlReportTest.rounds(2), EvaluationKind.FEDERATED))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CENTRAL");
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
