package io.tributary.learning.rounds.report;

import io.tributary.learning.rounds.RoundRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The figures, charts and round table of a run whose clients evaluate each round's model (a
 * server's, {@link RoundRecord.EvaluationKind#FEDERATED}): the clients' training loss, their
 * evaluation loss, the failures and, when the clients report one, their accuracy.
 */
final class FederatedReport {
  private static final String EVAL = "#d62728";
  private static final String CLIENT = "#7f7f7f";
  private static final String TRAIN = "#1f77b4";
  /** The clients' {@code accuracy} metric, as the server aggregates it (fit_NAME, evaluate_NAME). */
  static final String EVAL_ACCURACY = "evaluate_accuracy";
  static final String FIT_ACCURACY = "fit_accuracy";

  private FederatedReport() {}

  static void figures(StringBuilder h, List<RoundRecord> rounds) {
    h.append("<div class=\"figures\">\n");
    if (rounds.isEmpty()) {
      HtmlReport.figure(h, "rounds completed", "0");
    } else {
      RoundRecord last = rounds.getLast();
      RoundRecord lowest = null;
      double seconds = 0;
      long up = 0;
      long down = 0;
      long failures = 0;
      for (RoundRecord r : rounds) {
        if (Double.isFinite(r.evalLoss())
            && (lowest == null || r.evalLoss() < lowest.evalLoss())) {
          lowest = r;
        }
        seconds += r.seconds();
        up += r.bytesUp();
        down += r.bytesDown();
        failures += r.failures();
      }
      HtmlReport.figure(h, "final evaluation loss", HtmlReport.fixed(last.evalLoss()));
      HtmlReport.figure(h, "final client training loss", HtmlReport.fixed(last.clientLoss()));
      if (Double.isFinite(last.algorithmMetric(EVAL_ACCURACY))) {
        HtmlReport.figure(h, "final evaluation accuracy",
            HtmlReport.percent(last.algorithmMetric(EVAL_ACCURACY)));
      }
      if (lowest != null) {
        HtmlReport.figure(h, "lowest evaluation loss (round " + lowest.round() + ")",
            HtmlReport.fixed(lowest.evalLoss()));
      }
      HtmlReport.figure(h, "rounds completed", Integer.toString(last.round()));
      HtmlReport.figure(h, "time", String.format(Locale.ROOT, "%.1f s", seconds));
      HtmlReport.figure(h, "sent up / down",
          HtmlReport.bytes(up) + " / " + HtmlReport.bytes(down));
      HtmlReport.figure(h, "client failures", Long.toString(failures));
      if (Double.isFinite(last.algorithmMetric(RoundRecord.EPSILON))) {
        HtmlReport.figure(h, "privacy spent (epsilon)", String.format(Locale.ROOT, "%.4f",
            last.algorithmMetric(RoundRecord.EPSILON)));
      }
    }
    h.append("</div>\n");
  }

  static void charts(StringBuilder h, List<RoundRecord> rounds) {
    double[] x = HtmlReport.column(rounds, RoundRecord::round);
    double[] evalLoss = HtmlReport.column(rounds, RoundRecord::evalLoss);
    double[] clientLoss = HtmlReport.column(rounds, RoundRecord::clientLoss);
    double[] failures = HtmlReport.column(rounds, RoundRecord::failures);
    h.append("<h2>Progress</h2>\n<div class=\"charts\">\n");
    h.append(SvgLineChart.of("Loss", "round", "loss", 520, 320, 0, Double.NaN, List.of(
        new SvgLineChart.Series("evaluation (clients)", EVAL, x, evalLoss),
        new SvgLineChart.Series("clients while training", CLIENT, x, clientLoss))).render());
    h.append('\n');
    h.append(SvgLineChart.of("Failures", "round", "failed clients", 520, 320, 0, 1, List.of(
        new SvgLineChart.Series("failures", EVAL, x, failures))).render());
    List<SvgLineChart.Series> accuracy = new ArrayList<>();
    series(rounds, x, EVAL_ACCURACY, "evaluation (clients)", EVAL, accuracy);
    series(rounds, x, FIT_ACCURACY, "clients while training", TRAIN, accuracy);
    if (!accuracy.isEmpty()) {
      h.append('\n');
      h.append(SvgLineChart.of("Accuracy", "round", "accuracy", 520, 320, 0, 1, accuracy)
          .render());
    }
    List<SvgLineChart.Series> privacy = new ArrayList<>();
    series(rounds, x, RoundRecord.EPSILON, "epsilon (RDP accountant)", TRAIN, privacy);
    if (!privacy.isEmpty()) {
      h.append('\n');
      h.append(SvgLineChart.of("Privacy spent", "round", "epsilon", 520, 320, 0, Double.NaN,
          privacy).render());
    }
    h.append("\n</div>\n");
  }

  /** Adds the series of the algorithm metric {@code metric} when some round has it. */
  private static void series(List<RoundRecord> rounds, double[] x, String metric, String name,
      String color, List<SvgLineChart.Series> out) {
    double[] y = new double[rounds.size()];
    boolean any = false;
    for (int i = 0; i < y.length; i++) {
      y[i] = rounds.get(i).algorithmMetric(metric);
      any |= Double.isFinite(y[i]);
    }
    if (any) {
      out.add(new SvgLineChart.Series(name, color, x, y));
    }
  }

  static void roundTable(StringBuilder h, List<RoundRecord> rounds) {
    h.append("<h2>Rounds</h2>\n<details").append(rounds.size() <= 30 ? " open" : "")
        .append("><summary>").append(rounds.size()).append(" rounds</summary>\n")
        .append("<table class=\"rounds\">\n<tr><th>round</th><th>client loss</th>"
            + "<th>eval loss</th><th>clients</th><th>examples</th><th>failures</th>"
            + "<th>seconds</th><th>bytes up</th><th>bytes down</th>");
    // The clients' aggregated metrics (fit_NAME, evaluate_NAME) and the algorithm's own figures.
    SortedSet<String> extra = new TreeSet<>();
    for (RoundRecord r : rounds) {
      extra.addAll(r.algorithmMetrics().keySet());
    }
    for (String name : extra) {
      h.append("<th>").append(Markup.escape(name.replace('_', ' '))).append("</th>");
    }
    h.append("</tr>\n");
    for (RoundRecord r : rounds) {
      h.append("<tr>");
      HtmlReport.cell(h, Integer.toString(r.round()));
      HtmlReport.cell(h, HtmlReport.fixed(r.clientLoss()));
      HtmlReport.cell(h, HtmlReport.fixed(r.evalLoss()));
      HtmlReport.cell(h, Integer.toString(r.clients()));
      HtmlReport.cell(h, Long.toString(r.examples()));
      HtmlReport.cell(h, Integer.toString(r.failures()));
      HtmlReport.cell(h, String.format(Locale.ROOT, "%.2f", r.seconds()));
      HtmlReport.cell(h, Long.toString(r.bytesUp()));
      HtmlReport.cell(h, Long.toString(r.bytesDown()));
      for (String name : extra) {
        double v = r.algorithmMetric(name);
        HtmlReport.cell(h, Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n</details>\n");
  }
}
