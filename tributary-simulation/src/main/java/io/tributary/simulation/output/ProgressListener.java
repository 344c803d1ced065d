package io.tributary.simulation.output;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.RunFiles;
import io.tributary.simulation.SimulationEnd;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStart;
import io.tributary.tensor.Tensor;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.SequencedMap;

/**
 * The round-by-round progress display on stderr: on a terminal, one bar redrawn in place with the
 * round, its loss and accuracy and the time left; otherwise (a log file, CI) one plain line per
 * round, since carriage returns make logs unreadable. It opens with one line naming the run
 * (algorithm, data, clients, model and its size, rounds, output directory).
 */
public final class ProgressListener implements SimulationListener {
  /** How the progress is shown. */
  public enum Style {
    /** A bar redrawn in place with carriage returns. */
    BAR,
    /** One line per round. */
    LINES,
    /** Nothing. */
    NONE
  }

  /**
   * The system property the {@code tributary} launcher sets to {@code true} when stderr is a
   * terminal; Java 21 cannot tell this about stderr by itself.
   */
  public static final String TTY_PROPERTY = "tributary.stderr.tty";

  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final Style style;
  private int totalRounds;
  private int firstRound = 1;
  private double elapsed;
  private int lastWidth;

  /** A display on {@code err} in {@code style}. */
  public ProgressListener(PrintWriter err, Style style) {
    this.err = err;
    this.style = style;
  }

  /**
   * A display for rounds {@code firstRound} to {@code totalRounds}, for use without a simulation
   * (a simulation sets both when it starts).
   */
  public ProgressListener(PrintWriter err, Style style, int totalRounds, int firstRound) {
    this(err, style);
    this.totalRounds = totalRounds;
    this.firstRound = firstRound;
  }

  @Override
  public void started(SimulationStart start) {
    SimulationSettings s = start.settings();
    totalRounds = s.rounds();
    firstRound = start.firstRound();
    err.printf(Locale.ROOT, "%s on %s: %d clients (%d per round), model %s (%d parameters), "
        + "%d rounds%s%n", s.algorithm().cliName(), s.dataset(),
        start.data().clientTrain().size(), s.clientsPerRound(), s.model().cliName(),
        start.model().parameterCount(), s.rounds(),
        s.out() == null ? "" : "; writing " + s.out());
    if (start.resumed()) {
      err.printf(Locale.ROOT, "resuming after round %d (the checkpoint in %s)%n",
          firstRound - 1, s.out().resolve(RunFiles.MODEL));
    }
    err.flush();
  }

  @Override
  public void roundEnded(RoundRecord r, SequencedMap<String, Tensor> parameters) {
    round(r);
  }

  @Override
  public void finished(SimulationEnd end) {
    finish();
  }

  /** The style for stderr as the launcher described it. */
  public static Style detect() {
    return Boolean.parseBoolean(System.getProperty(TTY_PROPERTY, "false")) ? Style.BAR
        : Style.LINES;
  }

  /** Shows that round {@code r} finished (for displays driven without a simulation). */
  public void round(RoundRecord r) {
    elapsed += r.seconds();
    if (style == Style.NONE) {
      return;
    }
    String eta = duration(elapsed / (r.round() - firstRound + 1) * (totalRounds - r.round()));
    String figures = String.format(Locale.ROOT, "loss %.4f  test loss %.4f  accuracy %5.1f%%",
        r.trainLoss(), r.testLoss(), r.testAccuracy() * 100);
    String failures = r.failures() == 0 ? "" : "  failures " + r.failures();
    if (style == Style.LINES) {
      err.printf(Locale.ROOT, "round %d/%d  %s%s  %.2fs  eta %s%n", r.round(), totalRounds,
          figures, failures, r.seconds(), eta);
    } else {
      int filled = (int) ((long) BAR_WIDTH * r.round() / totalRounds);
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
    }
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
