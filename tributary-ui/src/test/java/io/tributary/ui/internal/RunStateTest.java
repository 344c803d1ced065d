package io.tributary.ui.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import io.tributary.learning.rounds.report.RunPage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunStateTest {
  private static RoundRecord round(int r, int failures) {
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < failures; i++) {
      reasons.add("client " + i + ": timed out");
    }
    return new RoundRecord(r, 1.0 / r, 0.9, 1.0 / r, 0.8, 1.0 / r, 10, 100, failures, 0.5, 10,
        20, reasons, 0, new TreeMap<>());
  }

  @Test
  void roundEnded_pastTheBound_keepsEvenlySpacedRoundsAndTheLatestAndTheTotals() {
    RunState state = new RunState("t", 100, EvaluationKind.CENTRAL);
    state.started(new LinkedHashMap<>(), List.of());
    for (int r = 1; r <= 10_001; r++) {
      state.roundEnded(round(r, 3));
    }

    assertThat(state.kept()).isLessThanOrEqualTo(100).isGreaterThanOrEqualTo(50);
    String html = state.page().html();
    assertThat(html).contains("10001 rounds")
        .contains("client failures").contains(">30003</div>")
        .contains("round 10001: client 2: timed out")
        .contains(" of 10001 rounds (evenly spaced, and the latest)");
    // At most the bound's rows plus the latest: the page does not grow with the run.
    assertThat(html.split("<tr><td class=\"n\">", -1).length - 1).isLessThanOrEqualTo(101);
    assertThat(html.split("<li>", -1).length - 1).isEqualTo(RunPage.MAX_FAILURE_LINES);
  }

  @Test
  void page_afterTheRun_isTheReportOfItsRounds() {
    RunState state = new RunState("fedavg on digits", 500, EvaluationKind.CENTRAL);
    LinkedHashMap<String, String> settings = new LinkedHashMap<>();
    settings.put("rounds", "3");
    state.started(settings, List.of());
    List<RoundRecord> rounds = List.of(round(1, 0), round(2, 1), round(3, 0));
    rounds.forEach(state::roundEnded);
    state.finished("completed 3 rounds");

    assertThat(state.page().html()).isEqualTo(io.tributary.learning.rounds.report.HtmlReport
        .render("fedavg on digits", "completed 3 rounds", settings, rounds));
  }

  @Test
  void page_beforeTheFirstRound_showsTheExpectedEvaluationsCharts() {
    RunState state = new RunState("server", 10, EvaluationKind.FEDERATED);

    assertThat(state.page().html()).contains("aria-label=\"Failures\"")
        .contains("waiting for the first round");
  }

  @Test
  void clientEvents_tenThousandInARound_showCountsAndBoundedReasons() {
    RunState state = new RunState("server", 10, EvaluationKind.FEDERATED);
    state.started(new LinkedHashMap<>(), List.of());
    state.roundStarted(1);
    state.stage(1, "fit", 10_000);
    for (int i = 0; i < 10_000; i++) {
      if (i % 10 == 0) {
        state.clientFailed(1, "c" + i, "FitRes status 'boom " + i + "'");
      } else {
        state.clientReported(1);
      }
      state.traffic(1, 2048L * i, 4096L * i);
    }

    String html = state.page().html();
    assertThat(html).contains("Round 1 under way").contains("running: round 1 under way")
        .contains("<td>fit</td><td class=\"n\">10000</td><td class=\"n\">9000</td>"
            + "<td class=\"n\">1000</td><td>running</td>")
        .contains("fit: c9990: FitRes status &#39;boom 9990&#39;")
        .contains("(980 earlier not shown)").contains(" up, ");
    assertThat(html.split("<li>", -1).length - 1).isEqualTo(RoundTracker.MAX_FAILURES);
  }

  @Test
  void stageEnded_replacesLiveCountsWithFinalOnes_andRoundEndedClearsTheRound() {
    RunState state = new RunState("server", 10, EvaluationKind.FEDERATED);
    state.started(new LinkedHashMap<>(), List.of());
    state.roundStarted(1);
    state.stage(1, "fit", 3);
    state.clientFailed(1, "c2", "the client left");
    state.clientReported(1);
    state.stageEnded(1, "fit", 1, List.of("client 1 (c1) timed out",
        "client 2 (c2) failed in flower_fit: the client left"));
    state.stage(1, "evaluate evaluate", 2);
    state.clientReported(2); // another round's event: ignored

    String html = state.page().html();
    assertThat(html).contains("<td>fit</td><td class=\"n\">3</td><td class=\"n\">1</td>"
            + "<td class=\"n\">2</td><td>done</td>")
        .contains("fit: client 1 (c1) timed out")
        .contains("fit: client 2 (c2) failed in flower_fit: the client left")
        .doesNotContain("fit: c2: the client left")
        .contains("<td>evaluate evaluate</td><td class=\"n\">2</td><td class=\"n\">0</td>");

    state.roundEnded(round(1, 2));
    assertThat(state.page().html()).doesNotContain("under way");
  }
}
