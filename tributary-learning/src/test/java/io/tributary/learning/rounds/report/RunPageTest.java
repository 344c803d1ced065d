package io.tributary.learning.rounds.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunPageTest {
  private static RoundRecord failing(int r, int failures) {
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < failures; i++) {
      reasons.add("client " + i + ": <reset>\nby peer");
    }
    return new RoundRecord(r, 1, 0.5, 1, 0.5, 1, failures, 10, failures, 0.5, 1, 1, reasons, 0,
        new TreeMap<>());
  }

  @Test
  void html_runningPage_saysLatestAndShowsProgressAgainstThePlannedRounds() {
    LinkedHashMap<String, String> settings = new LinkedHashMap<>();
    settings.put("rounds", "10");

    String html = RunPage.builder("t", EvaluationKind.CENTRAL).running(true)
        .status("running: round 3 ended").settings(settings)
        .rounds(HtmlReportTest.rounds(3)).build().html();

    assertThat(html).contains("latest test accuracy").doesNotContain("final test accuracy")
        .contains("<progress id=\"rounds-done\" max=\"10\" value=\"3\">")
        .contains("3 of 10 rounds, 0.25 s per round")
        .contains("<label for=\"rounds-done\">rounds</label>");
  }

  @Test
  void html_failureReasons_listedEscapedOnOneLineEachAndBounded() {
    List<RoundRecord> rounds = List.of(failing(1, 60), failing(2, 60));

    String html = RunPage.builder("t", EvaluationKind.CENTRAL).rounds(rounds).build().html();

    assertThat(html).contains("<li>round 2: client 59: &lt;reset&gt; by peer</li>")
        .doesNotContain("round 1: client 19:")
        .contains("20 earlier reasons are not shown");
    assertThat(html.split("<li>", -1).length - 1).isEqualTo(RunPage.MAX_FAILURE_LINES);
  }

  @Test
  void html_withScript_addsItOnceAndRefusesOneThatEndsItsElement() {
    RunPage page = RunPage.builder("t", EvaluationKind.CENTRAL).build();

    assertThat(page.html("var x = 1;")).contains("<script>var x = 1;</script>");
    assertThat(page.html()).doesNotContain("<script");
    assertThatThrownBy(() -> page.html("a</SCRIPT>")).isInstanceOf(
        IllegalArgumentException.class);
  }

  @Test
  void build_roundOfTheOtherEvaluation_isRefused() {
    assertThatThrownBy(() -> RunPage.builder("t", EvaluationKind.FEDERATED)
        .rounds(HtmlReportTest.rounds(1)).build())
        .hasMessageContaining("was evaluated CENTRAL, not FEDERATED");
  }
}
