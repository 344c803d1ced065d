package io.tributary.simulation.output;

import io.tributary.simulation.SimulationEnd;
import io.tributary.simulation.SimulationListener;
import io.tributary.learning.rounds.report.HtmlReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the run's one-page HTML report when it ends, completed or stopped: the figures, the
 * charts, the settings and every round (see {@link HtmlReport}).
 */
public final class ReportListener implements SimulationListener {
  private final Path file;

  /** Writes {@code file} (a run's {@code report.html}). */
  public ReportListener(Path file) {
    this.file = file;
  }

  @Override
  public void finished(SimulationEnd end) throws IOException {
    Files.writeString(file, HtmlReport.render(end.title(), end.outcome(),
        end.settings().display(), end.history().rounds()), StandardCharsets.UTF_8);
  }
}
