package io.tributary.learning.rounds.report;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * One state of a run's page: the after-run {@code report.html} is the page of the run's final
 * state, and a live view (tributary-ui) shows the same page, re-rendered as rounds end. One
 * renderer for both, so the report and the live page cannot drift apart: the figures, the charts
 * of the rounds' {@link EvaluationKind}, the progress, the failures with their reasons, the
 * settings and the table of rounds.
 *
 * <p>The page itself has no script and fetches nothing; a live view adds its one inline script
 * with {@link #html(String)} and replaces the {@code <main>} element's content ({@link #main()})
 * as the run goes on.
 */
public final class RunPage {
  /** Failure reasons a page lists at most: the latest ones. */
  public static final int MAX_FAILURE_LINES = 100;
  /** Characters of one failure reason a page shows at most. */
  public static final int MAX_FAILURE_CHARS = 300;

  private static final String STYLE = """
      body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}
      h1{font-size:22px;margin-bottom:4px}
      .outcome{color:#555;margin-top:0}
      .figures{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
      .figure{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:140px}
      .figure .v{font-size:22px;font-weight:bold}
      .figure .k{font-size:12px;color:#555}
      .charts{display:flex;flex-wrap:wrap;gap:16px}
      .progress{display:flex;align-items:center;gap:10px;font-size:14px}
      .progress progress{width:320px;height:14px}
      .failures{font-size:13px;font-family:monospace;padding-left:20px}
      table{border-collapse:collapse;font-size:13px}
      caption{text-align:left;font-size:12px;color:#555;padding:2px 0}
      td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
      td.n{text-align:right;font-variant-numeric:tabular-nums}
      summary{cursor:pointer}
      a:focus-visible,summary:focus-visible{outline:3px solid #1a4fa0;outline-offset:2px}
      """;

  private final String title;
  private final String status;
  private final boolean running;
  private final SequencedMap<String, String> settings;
  private final EvaluationKind kind;
  private final List<RoundRecord> rounds;
  private final RunTotals totals;
  private final List<String> failures;
  private final long failuresOmitted;
  private final int plannedRounds;
  private final RoundUnderWay underWay;

  private RunPage(Builder b) {
    this.underWay = b.underWay;
    this.title = b.title;
    this.status = b.status;
    this.running = b.running;
    this.settings = b.settings;
    this.kind = b.kind;
    this.rounds = b.rounds;
    this.totals = b.totals != null ? b.totals : RunTotals.of(b.rounds);
    if (b.failures != null) {
      this.failures = b.failures;
      this.failuresOmitted = b.failuresOmitted;
    } else {
      FailureLines lines = new FailureLines();
      b.rounds.forEach(lines::add);
      this.failures = lines.lines();
      this.failuresOmitted = lines.omitted();
    }
    this.plannedRounds = b.plannedRounds > 0 ? b.plannedRounds : planned(b.settings);
  }

  /**
   * A page of a run whose rounds are evaluated as {@code kind} says.
   *
   * @param title the page heading, such as {@code fedavg on digits}
   */
  public static Builder builder(String title, EvaluationKind kind) {
    return new Builder(Objects.requireNonNull(title, "title"),
        Objects.requireNonNull(kind, "kind"));
  }

  /** The page's style sheet, the one {@code <style>} element's text. */
  public static String style() {
    return STYLE;
  }

  /** The whole document, without a script: a report. */
  public String html() {
    return document(null);
  }

  /**
   * The whole document with {@code script} as its one inline script, run after the page is
   * parsed.
   *
   * @param script JavaScript with no {@code </script} in it
   * @throws IllegalArgumentException when the script would end its element early
   */
  public String html(String script) {
    if (script.toLowerCase(java.util.Locale.ROOT).contains("</script")) {
      throw new IllegalArgumentException("the script holds </script");
    }
    return document(script);
  }

  private String document(String script) {
    StringBuilder h = new StringBuilder(16384 + rounds.size() * 256);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(Markup.escape(title)).append("</title>\n")
        .append("<style>").append(STYLE).append("</style>\n</head>\n<body>\n")
        .append("<main id=\"run\">\n");
    main(h);
    h.append("</main>\n");
    if (script != null) {
      h.append("<script>").append(script).append("</script>\n");
    }
    return h.append("</body>\n</html>\n").toString();
  }

  /** The content of the page's {@code <main id="run">} element. */
  public String main() {
    StringBuilder h = new StringBuilder(16384 + rounds.size() * 256);
    main(h);
    return h.toString();
  }

  private void main(StringBuilder h) {
    h.append("<h1>").append(Markup.escape(title)).append("</h1>\n");
    h.append("<p class=\"outcome\" id=\"status\" role=\"status\">").append(Markup.escape(status))
        .append("</p>\n");
    progress(h);
    if (underWay != null) {
      underWay(h, underWay);
    }
    if (kind == EvaluationKind.FEDERATED) {
      FederatedReport.figures(h, this);
      FederatedReport.charts(h, rounds);
    } else {
      HtmlReport.figures(h, this);
      HtmlReport.charts(h, rounds);
    }
    failures(h);
    h.append("<h2>Settings</h2>\n<table class=\"settings\">\n<caption>the run's settings"
        + "</caption>\n");
    for (Map.Entry<String, String> e : settings.entrySet()) {
      h.append("<tr><th>").append(Markup.escape(e.getKey())).append("</th><td>")
          .append(Markup.escape(e.getValue())).append("</td></tr>\n");
    }
    h.append("</table>\n");
    if (kind == EvaluationKind.FEDERATED) {
      FederatedReport.roundTable(h, rounds, totals);
    } else {
      HtmlReport.roundTable(h, rounds, totals);
    }
  }

  private void progress(StringBuilder h) {
    long done = totals.lastRound();
    h.append("<div class=\"progress\" id=\"progress\">");
    if (plannedRounds > 0) {
      long shown = Math.min(done, plannedRounds);
      h.append("<label for=\"rounds-done\">rounds</label><progress id=\"rounds-done\" max=\"")
          .append(plannedRounds).append("\" value=\"").append(shown).append("\">")
          .append(shown).append(" of ").append(plannedRounds).append("</progress><span>")
          .append(done).append(" of ").append(plannedRounds).append(" rounds");
    } else {
      h.append("<span>").append(done).append(done == 1 ? " round" : " rounds");
    }
    double mean = totals.secondsPerRound();
    if (Double.isFinite(mean)) {
      h.append(", ").append(String.format(java.util.Locale.ROOT, "%.2f", mean))
          .append(" s per round");
    }
    h.append("</span></div>\n");
  }

  private static void underWay(StringBuilder h, RoundUnderWay u) {
    h.append("<section id=\"current\" aria-labelledby=\"current-heading\">\n")
        .append("<h2 id=\"current-heading\">Round ").append(u.round()).append(" under way</h2>\n")
        .append("<p id=\"current-summary\">started ").append(Markup.escape(u.startedAt()))
        .append(String.format(java.util.Locale.ROOT, ", %.1f s at the latest event", u.seconds()));
    if (u.bytesUp() >= 0 && u.bytesDown() >= 0) {
      h.append("; ").append(HtmlReport.bytes(u.bytesUp())).append(" up, ")
          .append(HtmlReport.bytes(u.bytesDown())).append(" down");
    }
    h.append("</p>\n");
    if (!u.stages().isEmpty()) {
      h.append("<table id=\"stages\">\n<caption>the stages of round ").append(u.round())
          .append(" so far</caption>\n<tr><th scope=\"col\">stage</th>")
          .append("<th scope=\"col\">clients</th><th scope=\"col\">reported</th>")
          .append("<th scope=\"col\">failed</th><th scope=\"col\">state</th></tr>\n");
      for (RoundUnderWay.Stage s : u.stages()) {
        h.append("<tr><td>").append(Markup.escape(s.name())).append("</td><td class=\"n\">")
            .append(s.clients()).append("</td><td class=\"n\">").append(s.reported())
            .append("</td><td class=\"n\">").append(s.failed()).append("</td><td>")
            .append(s.ended() ? "done" : "running").append("</td></tr>\n");
      }
      h.append("</table>\n");
    }
    if (!u.failures().isEmpty()) {
      h.append("<p id=\"current-failures-heading\">Failed in round ").append(u.round());
      if (u.failuresOmitted() > 0) {
        h.append(" (").append(u.failuresOmitted()).append(" earlier not shown)");
      }
      h.append(":</p>\n<ul class=\"failures\" id=\"current-failures\" "
          + "aria-labelledby=\"current-failures-heading\">\n");
      for (String line : u.failures()) {
        String text = line.length() > MAX_FAILURE_CHARS
            ? line.substring(0, MAX_FAILURE_CHARS - 3) + "..." : line;
        h.append("<li>").append(Markup.escape(text.replaceAll("\\R", " "))).append("</li>\n");
      }
      h.append("</ul>\n");
    }
    h.append("</section>\n");
  }

  private void failures(StringBuilder h) {
    if (failures.isEmpty()) {
      return;
    }
    h.append("<h2 id=\"failures-heading\">Failures</h2>\n");
    if (failuresOmitted > 0) {
      h.append("<p>").append(failuresOmitted).append(failuresOmitted == 1
          ? " earlier reason is" : " earlier reasons are").append(" not shown; every round's"
          + " are in metrics.jsonl.</p>\n");
    }
    h.append("<ul class=\"failures\" id=\"failures\" aria-labelledby=\"failures-heading\">\n");
    for (String line : failures) {
      h.append("<li>").append(Markup.escape(line)).append("</li>\n");
    }
    h.append("</ul>\n");
  }

  /** The rounds planned: the settings' {@code rounds}, or 0 when they name none. */
  private static int planned(SequencedMap<String, String> settings) {
    String s = settings.get("rounds");
    if (s == null || !s.matches("[0-9]{1,9}")) {
      return 0;
    }
    return Integer.parseInt(s);
  }

  boolean running() {
    return running;
  }

  RunTotals totals() {
    return totals;
  }

  List<RoundRecord> rounds() {
    return rounds;
  }

  /**
   * The latest {@link #MAX_FAILURE_LINES} failure reasons of a run, each as {@code round R:
   * reason}, cut to {@link #MAX_FAILURE_CHARS}; holds no more than that whatever it is given.
   */
  public static final class FailureLines {
    private final Deque<String> lines = new ArrayDeque<>();
    private long omitted;

    /** Adds round {@code r}'s reasons. */
    public void add(RoundRecord r) {
      for (String reason : r.failureReasons()) {
        String text = reason.length() > MAX_FAILURE_CHARS
            ? reason.substring(0, MAX_FAILURE_CHARS - 3) + "..." : reason;
        lines.addLast("round " + r.round() + ": " + text.replaceAll("\\R", " "));
        if (lines.size() > MAX_FAILURE_LINES) {
          lines.removeFirst();
          omitted++;
        }
      }
    }

    /** The lines kept, oldest first. */
    public List<String> lines() {
      return List.copyOf(lines);
    }

    /** How many earlier lines were dropped. */
    public long omitted() {
      return omitted;
    }
  }

  /** A page's parts; {@link #build} checks that every round has the page's evaluation. */
  public static final class Builder {
    private final String title;
    private final EvaluationKind kind;
    private String status = "";
    private boolean running;
    private SequencedMap<String, String> settings = new LinkedHashMap<>();
    private List<RoundRecord> rounds = List.of();
    private RunTotals totals;
    private List<String> failures;
    private long failuresOmitted;
    private int plannedRounds;
    private RoundUnderWay underWay;

    private Builder(String title, EvaluationKind kind) {
      this.title = title;
      this.kind = kind;
    }

    /** One sentence on where the run is or how it ended. */
    public Builder status(String status) {
      this.status = Objects.requireNonNull(status, "status");
      return this;
    }

    /**
     * Whether the run is still going: its figures then say "latest" where a report's say
     * "final".
     */
    public Builder running(boolean running) {
      this.running = running;
      return this;
    }

    /** Every setting of the run, in display order. */
    public Builder settings(SequencedMap<String, String> settings) {
      this.settings = new LinkedHashMap<>(settings);
      return this;
    }

    /**
     * The rounds the charts and the table show, in order: every round for a report, a thinned
     * out history for a long live run (then give the {@link #totals} too).
     */
    public Builder rounds(List<RoundRecord> rounds) {
      this.rounds = List.copyOf(rounds);
      return this;
    }

    /** The sums over every round of the run; by default those of the {@link #rounds}. */
    public Builder totals(RunTotals totals) {
      this.totals = Objects.requireNonNull(totals, "totals");
      return this;
    }

    /** The failure lines to list; by default those of the {@link #rounds}' reasons. */
    public Builder failures(FailureLines lines) {
      this.failures = lines.lines();
      this.failuresOmitted = lines.omitted();
      return this;
    }

    /** The rounds the run plans; by default the settings' {@code rounds}, if they have one. */
    public Builder plannedRounds(int rounds) {
      this.plannedRounds = rounds;
      return this;
    }

    /**
     * The round under way, shown below the progress bar; a live page's, while its run goes (a
     * report has none).
     */
    public Builder underWay(RoundUnderWay round) {
      this.underWay = Objects.requireNonNull(round, "round");
      return this;
    }

    /**
     * The page.
     *
     * @throws IllegalArgumentException if a round was evaluated otherwise than the page's kind
     */
    public RunPage build() {
      for (RoundRecord r : rounds) {
        if (r.evaluation() != kind) {
          throw new IllegalArgumentException("round " + r.round() + " was evaluated "
              + r.evaluation() + ", not " + kind);
        }
      }
      return new RunPage(this);
    }
  }
}
