package io.tributary.learning.rounds.report;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SequencedMap;
import java.util.function.ToDoubleFunction;

/**
 * The one-page HTML report of a run of rounds, a simulator's or a server's: the final figures,
 * the charts as inline SVG, the settings and a per-round table. It has no scripts, no external
 * stylesheets and no fetched resources, so it reads the same from a file, an archive or an
 * air-gapped machine.
 *
 * <p>The charts are those of the rounds' {@link EvaluationKind}: a {@link EvaluationKind#CENTRAL}
 * run (the simulator's) has training and test loss and accuracy; a {@link
 * EvaluationKind#FEDERATED} run (a server's) has the clients' training and evaluation loss, the
 * failures per round and, when the clients report an {@code accuracy} metric, its accuracy. A run
 * with an {@code epsilon} algorithm metric (differential privacy) also charts the privacy spent.
 *
 * <p>The report is the final state of the run's page ({@link RunPage}), the same page a live
 * view shows while the run goes on.
 */
public final class HtmlReport {
  private static final String TRAIN = "#1f77b4";
  private static final String TEST = "#d62728";
  private static final String CLIENT = "#7f7f7f";

  private HtmlReport() {}

  /**
   * The page for a run, with the charts of its rounds' evaluation ({@link
   * EvaluationKind#CENTRAL} when there are none).
   *
   * @param title the page heading, such as {@code fedavg on digits}
   * @param outcome one sentence on how the run ended
   * @param settings every setting of the run, in display order
   * @param rounds the rounds measured, in order (may be empty)
   */
  public static String render(String title, String outcome, SequencedMap<String, String> settings,
      List<RoundRecord> rounds) {
    return render(title, outcome, settings, rounds,
        rounds.isEmpty() ? EvaluationKind.CENTRAL : rounds.getFirst().evaluation());
  }

  /**
   * The page for a run whose rounds are evaluated as {@code kind} says, so that a run without
   * rounds shows the charts it would have had.
   *
   * @param title the page heading, such as {@code fedavg on digits}
   * @param outcome one sentence on how the run ended
   * @param settings every setting of the run, in display order
   * @param rounds the rounds measured, in order (may be empty)
   * @param kind how the run evaluates its rounds
   * @throws IllegalArgumentException if a round was evaluated otherwise
   */
  public static String render(String title, String outcome, SequencedMap<String, String> settings,
      List<RoundRecord> rounds, EvaluationKind kind) {
    return RunPage.builder(title, kind).status(outcome).settings(settings).rounds(rounds).build()
        .html();
  }

  static void figures(StringBuilder h, RunPage page) {
    List<RoundRecord> rounds = page.rounds();
    RunTotals totals = page.totals();
    h.append("<div class=\"figures\">\n");
    if (rounds.isEmpty()) {
      figure(h, "rounds completed", Integer.toString(totals.lastRound()));
    } else {
      String last = page.running() ? "latest" : "final";
      RoundRecord latest = rounds.getLast();
      RoundRecord best = latest;
      RoundRecord lowest = latest;
      for (RoundRecord r : rounds) {
        if (r.testAccuracy() > best.testAccuracy()) {
          best = r;
        }
        if (r.trainLoss() < lowest.trainLoss()) {
          lowest = r;
        }
      }
      figure(h, last + " test accuracy", percent(latest.testAccuracy()));
      figure(h, last + " test loss", fixed(latest.testLoss()));
      figure(h, last + " training loss", fixed(latest.trainLoss()));
      figure(h, "best test accuracy (round " + best.round() + ")", percent(best.testAccuracy()));
      figure(h, "lowest training loss (round " + lowest.round() + ")", fixed(lowest.trainLoss()));
      common(h, page, latest);
    }
    h.append("</div>\n");
  }

  /** The figures of either evaluation: rounds, time, traffic, failures and privacy. */
  static void common(StringBuilder h, RunPage page, RoundRecord latest) {
    RunTotals totals = page.totals();
    figure(h, "rounds completed", Integer.toString(totals.lastRound()));
    figure(h, "time", String.format(Locale.ROOT, "%.1f s", totals.seconds()));
    figure(h, "time per round", String.format(Locale.ROOT, "%.2f s",
        totals.secondsPerRound()));
    figure(h, "sent up / down", bytes(totals.bytesUp()) + " / " + bytes(totals.bytesDown()));
    figure(h, "client failures", Long.toString(totals.failures()));
    if (Double.isFinite(latest.algorithmMetric("epsilon"))) {
      figure(h, "privacy spent (epsilon)", String.format(Locale.ROOT, "%.4f",
          latest.algorithmMetric("epsilon")));
    }
  }

  static void figure(StringBuilder h, String key, String value) {
    h.append("<div class=\"figure\" data-key=\"").append(Markup.escape(key))
        .append("\"><div class=\"v\">").append(Markup.escape(value))
        .append("</div><div class=\"k\">").append(Markup.escape(key)).append("</div></div>\n");
  }

  /** One figure of every round, in round order: a chart's series. */
  static double[] column(List<RoundRecord> rounds, ToDoubleFunction<RoundRecord> figure) {
    double[] out = new double[rounds.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = figure.applyAsDouble(rounds.get(i));
    }
    return out;
  }

  static void charts(StringBuilder h, List<RoundRecord> rounds) {
    double[] x = column(rounds, RoundRecord::round);
    double[] trainLoss = column(rounds, RoundRecord::trainLoss);
    double[] testLoss = column(rounds, RoundRecord::testLoss);
    double[] clientLoss = column(rounds, RoundRecord::clientLoss);
    double[] trainAcc = column(rounds, RoundRecord::trainAccuracy);
    double[] testAcc = column(rounds, RoundRecord::testAccuracy);
    h.append("<h2>Progress</h2>\n<div class=\"charts\">\n");
    h.append(SvgLineChart.of("Loss", "round", "loss", 520, 320, 0, Double.NaN, List.of(
        new SvgLineChart.Series("training (global model)", TRAIN, x, trainLoss),
        new SvgLineChart.Series("test", TEST, x, testLoss),
        new SvgLineChart.Series("clients while training", CLIENT, x, clientLoss))).render());
    h.append('\n');
    h.append(SvgLineChart.of("Accuracy", "round", "accuracy", 520, 320, 0, 1, List.of(
        new SvgLineChart.Series("training", TRAIN, x, trainAcc),
        new SvgLineChart.Series("test", TEST, x, testAcc))).render());
    double[] epsilon = column(rounds, r -> r.algorithmMetric("epsilon"));
    if (Arrays.stream(epsilon).anyMatch(Double::isFinite)) {
      h.append('\n');
      h.append(SvgLineChart.of("Privacy spent", "round", "epsilon", 520, 320, 0, Double.NaN,
          List.of(new SvgLineChart.Series("epsilon (RDP accountant)", TRAIN, x, epsilon)))
          .render());
    }
    h.append("\n</div>\n");
  }

  static void roundTable(StringBuilder h, List<RoundRecord> rounds, RunTotals totals) {
    tableOpening(h, rounds, totals);
    h.append("<tr><th>round</th><th>training loss</th>"
            + "<th>training accuracy</th><th>test loss</th><th>test accuracy</th>"
            + "<th>client loss</th><th>clients</th><th>failures</th><th>seconds</th>"
            + "<th>bytes up</th><th>bytes down</th>");
    // The algorithm's own figures (a DP run's epsilon and clipping norm), by name.
    java.util.SortedSet<String> extra = new java.util.TreeSet<>();
    for (RoundRecord r : rounds) {
      extra.addAll(r.algorithmMetrics().keySet());
    }
    for (String name : extra) {
      h.append("<th>").append(Markup.escape(name.replace('_', ' '))).append("</th>");
    }
    h.append("</tr>\n");
    for (RoundRecord r : rounds) {
      h.append("<tr>");
      cell(h, Integer.toString(r.round()));
      cell(h, fixed(r.trainLoss()));
      cell(h, percent(r.trainAccuracy()));
      cell(h, fixed(r.testLoss()));
      cell(h, percent(r.testAccuracy()));
      cell(h, fixed(r.clientLoss()));
      cell(h, Integer.toString(r.clients()));
      cell(h, Integer.toString(r.failures()));
      cell(h, String.format(Locale.ROOT, "%.2f", r.seconds()));
      cell(h, Long.toString(r.bytesUp()));
      cell(h, Long.toString(r.bytesDown()));
      for (String name : extra) {
        double v = r.algorithmMetric(name);
        cell(h, Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n</details>\n");
  }

  /**
   * The heading, the folding and the caption of the round table: a thinned out history says how
   * many of the run's rounds it shows.
   */
  static void tableOpening(StringBuilder h, List<RoundRecord> rounds, RunTotals totals) {
    String count = rounds.size() == totals.rounds() ? rounds.size() + " rounds"
        : rounds.size() + " of " + totals.rounds() + " rounds (evenly spaced, and the latest)";
    h.append("<h2>Rounds</h2>\n<details id=\"rounds\"").append(rounds.size() <= 30 ? " open" : "")
        .append("><summary id=\"rounds-summary\">").append(count).append("</summary>\n")
        .append("<table class=\"rounds\">\n<caption>each round's figures</caption>\n");
  }

  static void cell(StringBuilder h, String text) {
    h.append("<td class=\"n\">").append(Markup.escape(text)).append("</td>");
  }

  static String percent(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f%%", v * 100) : "n/a";
  }

  static String fixed(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "n/a";
  }

  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
