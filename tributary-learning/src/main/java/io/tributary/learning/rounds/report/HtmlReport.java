package io.tributary.learning.rounds.report;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    for (RoundRecord r : rounds) {
      if (r.evaluation() != kind) {
        throw new IllegalArgumentException("round " + r.round() + " was evaluated "
            + r.evaluation() + ", not " + kind);
      }
    }
    StringBuilder h = new StringBuilder(16384 + rounds.size() * 256);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>").append(Markup.escape(title)).append("</title>\n")
        .append("<style>\n")
        .append("body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222;"
            + "padding:0 16px}\n")
        .append("h1{font-size:22px;margin-bottom:4px}\n")
        .append(".outcome{color:#555;margin-top:0}\n")
        .append(".figures{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}\n")
        .append(".figure{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:140px}\n")
        .append(".figure .v{font-size:22px;font-weight:bold}\n")
        .append(".figure .k{font-size:12px;color:#666}\n")
        .append(".charts{display:flex;flex-wrap:wrap;gap:16px}\n")
        .append("table{border-collapse:collapse;font-size:13px}\n")
        .append("td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}\n")
        .append("td.n{text-align:right;font-variant-numeric:tabular-nums}\n")
        .append("</style>\n</head>\n<body>\n");
    h.append("<h1>").append(Markup.escape(title)).append("</h1>\n");
    h.append("<p class=\"outcome\">").append(Markup.escape(outcome)).append("</p>\n");
    if (kind == EvaluationKind.FEDERATED) {
      FederatedReport.figures(h, rounds);
      FederatedReport.charts(h, rounds);
    } else {
      figures(h, rounds);
      charts(h, rounds);
    }
    h.append("<h2>Settings</h2>\n<table class=\"settings\">\n");
    for (Map.Entry<String, String> e : settings.entrySet()) {
      h.append("<tr><th>").append(Markup.escape(e.getKey())).append("</th><td>")
          .append(Markup.escape(e.getValue())).append("</td></tr>\n");
    }
    h.append("</table>\n");
    if (kind == EvaluationKind.FEDERATED) {
      FederatedReport.roundTable(h, rounds);
    } else {
      roundTable(h, rounds);
    }
    return h.append("</body>\n</html>\n").toString();
  }

  private static void figures(StringBuilder h, List<RoundRecord> rounds) {
    h.append("<div class=\"figures\">\n");
    if (rounds.isEmpty()) {
      figure(h, "rounds completed", "0");
    } else {
      RoundRecord last = rounds.getLast();
      RoundRecord best = last;
      RoundRecord lowest = last;
      double seconds = 0;
      long up = 0;
      long down = 0;
      long failures = 0;
      for (RoundRecord r : rounds) {
        if (r.testAccuracy() > best.testAccuracy()) {
          best = r;
        }
        if (r.trainLoss() < lowest.trainLoss()) {
          lowest = r;
        }
        seconds += r.seconds();
        up += r.bytesUp();
        down += r.bytesDown();
        failures += r.failures();
      }
      figure(h, "final test accuracy", percent(last.testAccuracy()));
      figure(h, "final test loss", fixed(last.testLoss()));
      figure(h, "final training loss", fixed(last.trainLoss()));
      figure(h, "best test accuracy (round " + best.round() + ")", percent(best.testAccuracy()));
      figure(h, "lowest training loss (round " + lowest.round() + ")", fixed(lowest.trainLoss()));
      figure(h, "rounds completed", Integer.toString(last.round()));
      figure(h, "time", String.format(Locale.ROOT, "%.1f s", seconds));
      figure(h, "sent up / down", bytes(up) + " / " + bytes(down));
      figure(h, "client failures", Long.toString(failures));
      if (Double.isFinite(last.algorithmMetric(RoundRecord.EPSILON))) {
        figure(h, "privacy spent (epsilon)", String.format(Locale.ROOT, "%.4f",
            last.algorithmMetric(RoundRecord.EPSILON)));
      }
    }
    h.append("</div>\n");
  }

  static void figure(StringBuilder h, String key, String value) {
    h.append("<div class=\"figure\"><div class=\"v\">").append(Markup.escape(value))
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

  private static void charts(StringBuilder h, List<RoundRecord> rounds) {
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
    double[] epsilon = column(rounds, r -> r.algorithmMetric(RoundRecord.EPSILON));
    if (Arrays.stream(epsilon).anyMatch(Double::isFinite)) {
      h.append('\n');
      h.append(SvgLineChart.of("Privacy spent", "round", "epsilon", 520, 320, 0, Double.NaN,
          List.of(new SvgLineChart.Series("epsilon (RDP accountant)", TRAIN, x, epsilon)))
          .render());
    }
    h.append("\n</div>\n");
  }

  private static void roundTable(StringBuilder h, List<RoundRecord> rounds) {
    h.append("<h2>Rounds</h2>\n<details").append(rounds.size() <= 30 ? " open" : "")
        .append("><summary>").append(rounds.size()).append(" rounds</summary>\n")
        .append("<table class=\"rounds\">\n<tr><th>round</th><th>training loss</th>"
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
