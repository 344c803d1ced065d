package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * A run's round-by-round progress on a console, for any binding: on a terminal, one bar redrawn
 * in place; otherwise (a log file, CI) one plain line per round, since carriage returns make logs
 * unreadable. It opens with the start's {@link RunStart#banner} lines. A round evaluated centrally
 * (the simulator's) shows its loss, test loss, accuracy and the time left; a round evaluated by
 * the clients (a server's) shows its clients, failures, losses, time and traffic, and in lines
 * each failure's reason.
 */
public final class ProgressListener implements RoundListener {
  /** How the progress is shown. */
  public enum Style {
    /** A bar redrawn in place with carriage returns. */
    BAR,
    /** One line per round. */
    LINES,
    /** No rounds: the start's banner only. */
    NONE
  }

  /**
   * The system property the {@code tributary} launcher sets to {@code true} when stderr is a
   * terminal; Java cannot tell this about stderr by itself.
   */
  public static final String TTY_PROPERTY = "tributary.stderr.tty";

  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final Style style;
  private int totalRounds;
  private int firstRound = 1;
  private double elapsed;
  private int lastWidth;

  /** A display on {@code err} in {@code style}, its rounds as the run's start says. */
  public ProgressListener(PrintWriter err, Style style) {
    this.err = Objects.requireNonNull(err, "err");
    this.style = Objects.requireNonNull(style, "style");
  }

  /**
   * A display for rounds {@code firstRound} to {@code totalRounds}, for a binding's files set up
   * before the run starts, or for use without a run.
   */
  public ProgressListener(PrintWriter err, Style style, int totalRounds, int firstRound) {
    this(err, style);
    this.totalRounds = totalRounds;
    this.firstRound = firstRound;
  }

  @Override
  public void started(RunStart start) {
    totalRounds = start.lastRound();
    firstRound = start.firstRound();
    if (!start.banner().isEmpty()) {
      start.banner().forEach(err::println);
      err.flush();
    }
  }

  @Override
  public void roundEnded(RoundRecord r, SequencedMap<String, Tensor> parameters) {
    round(r);
  }

  @Override
  public void finished(RunEnd end) {
    finish();
  }

  /** The style for stderr as the launcher described it. */
  public static Style detect() {
    return Boolean.parseBoolean(System.getProperty(TTY_PROPERTY, "false")) ? Style.BAR
        : Style.LINES;
  }

  /** Shows that round {@code r} finished (for displays driven without a run). */
  public void round(RoundRecord r) {
    elapsed += r.seconds();
    if (style == Style.NONE) {
      return;
    }
    if (r.evaluation() == EvaluationKind.FEDERATED && style == Style.LINES) {
      err.println(federatedLine(r, totalRounds));
      r.failureReasons().forEach(why -> err.println("  failed: " + why));
      if (r.nonFiniteMetrics() > 0) {
        err.println("  left out: " + r.nonFiniteMetrics() + " NaN or infinite client metrics");
      }
      err.flush();
      return;
    }
    String eta = duration(elapsed / (r.round() - firstRound + 1) * (totalRounds - r.round()));
    String figures = r.evaluation() == EvaluationKind.FEDERATED
        ? String.format(Locale.ROOT, "%d clients, %d failed, client_loss %s, eval_loss %s",
            r.clients(), r.failures(), loss(r.clientLoss()), loss(r.evalLoss()))
        : String.format(Locale.ROOT, "loss %.4f  test loss %.4f  accuracy %5.1f%%",
            r.trainLoss(), r.testLoss(), r.testAccuracy() * 100);
    String failures = r.failures() == 0 || r.evaluation() == EvaluationKind.FEDERATED ? ""
        : "  failures " + r.failures();
    if (style == Style.LINES) {
      err.printf(Locale.ROOT, "round %d/%d  %s%s  %.2fs  eta %s%n", r.round(), totalRounds,
          figures, failures, r.seconds(), eta);
    } else {
      int filled = totalRounds <= 0 ? 0
          : (int) Math.min(BAR_WIDTH, (long) BAR_WIDTH * r.round() / totalRounds);
      String line = "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "] "
          + String.format(Locale.ROOT, "round %d/%d  %s%s  eta %s", r.round(), totalRounds,
              figures, failures, eta);
      // Pad over the previous line's tail: the new line may be shorter.
      err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    }
    err.flush();
  }

  /** Ends the display, so that what follows starts on a fresh line. */
  public void finish() {
    if (style == Style.BAR && lastWidth > 0) {
      err.println();
      err.flush();
      lastWidth = 0;
    }
  }

  /**
   * A round evaluated by its clients as one line, {@code round 3/10: 5 clients, 0 failed,
   * client_loss 0.4120, eval_loss 0.3981, 1.20 s, 2.0 KB up, 4.0 KB down}, with {@code -} for a
   * loss no client reported.
   */
  public static String federatedLine(RoundRecord m, int rounds) {
    return String.format(Locale.ROOT, "round %d/%d: %d clients, %d failed, client_loss %s, "
        + "eval_loss %s, %.2f s, %s up, %s down", m.round(), rounds, m.clients(), m.failures(),
        loss(m.clientLoss()), loss(m.evalLoss()), m.seconds(), bytes(m.bytesUp()),
        bytes(m.bytesDown()));
  }

  private static String loss(double loss) {
    return Double.isNaN(loss) ? "-" : String.format(Locale.ROOT, "%.4f", loss);
  }

  private static String bytes(long n) {
    return n < 1 << 20 ? String.format(Locale.ROOT, "%.1f KB", n / 1024.0)
        : String.format(Locale.ROOT, "%.1f MB", n / 1048576.0);
  }

  /** {@code 1:02:03}, {@code 2:03} or {@code 7s}. */
  public static String duration(double seconds) {
    if (!Double.isFinite(seconds) || seconds < 0) {
      return "?";
    }
    long s = Math.round(seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }
}
