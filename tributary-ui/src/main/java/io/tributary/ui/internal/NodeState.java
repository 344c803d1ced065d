package io.tributary.ui.internal;

import io.tributary.learning.rounds.report.RunPage;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * What a node's live page knows: whether the node is active, the totals of every message it
 * handled and the latest {@code bound} messages with their outcomes, in bounded memory however
 * long the node serves. Its methods are synchronized: the node's thread adds, the page's thread
 * renders; adding a message is O(1).
 */
public final class NodeState implements PageSource {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
      .withZone(ZoneOffset.UTC);
  /** Characters of a message's detail a row shows at most. */
  static final int MAX_DETAIL_CHARS = 300;

  private final String title;
  private final int bound;
  private final Deque<Row> rows = new ArrayDeque<>();
  private String status = "waiting for the node to become active";
  private long handled;
  private long failed;
  private long bytesIn;
  private long bytesOut;
  private boolean ended;
  private long version;

  /**
   * One message as the page shows it.
   *
   * @param runId the run, as an unsigned number
   * @param type the message type
   * @param round the server round, or empty when the message did not say
   * @param outcome what became of it, in words
   * @param failed whether that is a failure (an error reply, a refusal, a reply not sent)
   * @param detail the error or reason; empty for a reply with content
   */
  public record Row(Instant at, String runId, String type, String round, String outcome,
      boolean failed, String detail, double seconds, long bytesIn, long bytesOut) {}

  /**
   * An empty state.
   *
   * @param bound the messages the page lists at most, at least 1
   */
  public NodeState(String title, int bound) {
    if (bound < 1) {
      throw new IllegalArgumentException("a node page lists at least 1 message, got " + bound);
    }
    this.title = title;
    this.bound = bound;
  }

  /** The status line: whether the node is active, and where. */
  public synchronized void status(String status) {
    if (!ended) {
      this.status = status;
      version++;
    }
  }

  /** The node handled a message. */
  public synchronized void message(Row row) {
    handled++;
    if (row.failed()) {
      failed++;
    }
    bytesIn += row.bytesIn();
    bytesOut += row.bytesOut();
    String d = row.detail().replaceAll("\\R", " ");
    if (d.length() > MAX_DETAIL_CHARS) {
      d = d.substring(0, MAX_DETAIL_CHARS - 3) + "...";
    }
    rows.addFirst(new Row(row.at(), row.runId(), row.type(), row.round(), row.outcome(),
        row.failed(), d, row.seconds(), row.bytesIn(), row.bytesOut()));
    if (rows.size() > bound) {
      rows.removeLast();
    }
    version++;
  }

  /** The node has stopped; the page keeps its last state. */
  public synchronized void ended(String why) {
    if (!ended) {
      status = why;
      ended = true;
      version++;
    }
  }

  @Override
  public synchronized long version() {
    return version;
  }

  /** What one rendering shows, copied under the lock and written outside it. */
  private record Snapshot(String title, String status, long handled, long failed, long bytesIn,
      long bytesOut, java.util.List<Row> rows, boolean ended, long version) {}

  /**
   * {@inheritDoc} Only the snapshot is taken under the lock: the HTML is written outside it, so
   * that the node's threads never wait for a render.
   */
  @Override
  public Rendered render(String script) {
    Snapshot n;
    synchronized (this) {
      n = new Snapshot(title, status, handled, failed, bytesIn, bytesOut,
          java.util.List.copyOf(rows), ended, version);
    }
    String main = main(n);
    StringBuilder h = new StringBuilder(main.length() + 4096);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(escape(n.title())).append("</title>\n")
        .append("<style>").append(RunPage.style()).append("</style>\n</head>\n<body>\n")
        .append("<main id=\"run\">\n").append(main).append("</main>\n")
        .append("<script>").append(script).append("</script>\n</body>\n</html>\n");
    return new Rendered(n.version(), h.toString(), main, n.ended());
  }

  private static String main(Snapshot n) {
    java.util.List<Row> rows = n.rows();
    long handled = n.handled();
    StringBuilder h = new StringBuilder(4096 + rows.size() * 256);
    h.append("<h1>").append(escape(n.title())).append("</h1>\n")
        .append("<p class=\"outcome\" id=\"status\" role=\"status\">").append(escape(n.status()))
        .append("</p>\n<div class=\"figures\">\n");
    figure(h, "messages handled", Long.toString(handled));
    figure(h, "replied with content", Long.toString(handled - n.failed()));
    figure(h, "failed", Long.toString(n.failed()));
    figure(h, "bytes in", bytes(n.bytesIn()));
    figure(h, "bytes out", bytes(n.bytesOut()));
    h.append("</div>\n<h2 id=\"messages-heading\">Messages</h2>\n");
    if (rows.isEmpty()) {
      h.append("<p>No message yet.</p>\n");
      return h.toString();
    }
    h.append("<table id=\"messages\" aria-labelledby=\"messages-heading\">\n<caption>the latest ")
        .append(rows.size()).append(rows.size() == 1 ? " message" : " messages")
        .append(", newest first")
        .append(handled > rows.size() ? " (" + (handled - rows.size()) + " earlier not shown)"
            : "")
        .append("</caption>\n<tr>");
    for (String c : new String[] {"time (UTC)", "run", "type", "round", "outcome", "detail",
        "seconds", "bytes in", "bytes out"}) {
      h.append("<th scope=\"col\">").append(c).append("</th>");
    }
    h.append("</tr>\n");
    for (Row r : rows) {
      h.append("<tr").append(r.failed() ? " class=\"failed\"" : "").append("><td>")
          .append(CLOCK.format(r.at())).append("</td><td>").append(escape(r.runId()))
          .append("</td><td>").append(escape(r.type())).append("</td><td class=\"n\">")
          .append(escape(r.round())).append("</td><td>").append(escape(r.outcome()))
          .append("</td><td>").append(escape(r.detail())).append("</td><td class=\"n\">")
          .append(String.format(Locale.ROOT, "%.3f", r.seconds()))
          .append("</td><td class=\"n\">").append(bytes(r.bytesIn()))
          .append("</td><td class=\"n\">").append(bytes(r.bytesOut())).append("</td></tr>\n");
    }
    return h.append("</table>\n").toString();
  }

  private static void figure(StringBuilder h, String key, String value) {
    h.append("<div class=\"figure\" data-key=\"").append(escape(key))
        .append("\"><div class=\"v\">").append(escape(value))
        .append("</div><div class=\"k\">").append(escape(key)).append("</div></div>\n");
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

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
