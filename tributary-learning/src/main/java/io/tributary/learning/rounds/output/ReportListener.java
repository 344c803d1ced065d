package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.report.HtmlReport;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * Writes a run's one-page HTML report ({@link HtmlReport}) when it ends, completed or stopped,
 * for any binding: the start's title and settings, every round (a resumed run's earlier ones
 * included) and the outcome.
 */
public final class ReportListener implements RoundListener {
  private final Path file;
  private String title = "tributary run";
  private SequencedMap<String, String> settings = new LinkedHashMap<>();

  /** Writes {@code file} (a run's {@code report.html}). */
  public ReportListener(Path file) {
    this.file = file;
  }

  @Override
  public void started(RunStart start) {
    title = start.title();
    settings = new LinkedHashMap<>(start.settingsDisplay());
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters) {}

  @Override
  public void finished(RunEnd end) throws IOException {
    Files.writeString(file, HtmlReport.render(title, end.outcome(), settings, end.rounds()),
        StandardCharsets.UTF_8);
  }
}
