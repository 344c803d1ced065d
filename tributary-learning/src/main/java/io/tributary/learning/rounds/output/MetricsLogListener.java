package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SequencedMap;

/**
 * Appends each round to a {@link MetricsLog} ({@code metrics.jsonl}) as it ends, for any binding.
 * A new run creates the file, which must not exist; a resumed run cuts the file back to the round
 * before its first (dropping later rounds and a half-written line) and appends after it.
 */
public final class MetricsLogListener implements RoundListener {
  private final Path file;
  private MetricsLog log;

  /** Writes {@code file}. */
  public MetricsLogListener(Path file) {
    this.file = file;
  }

  @Override
  public void started(RunStart start) throws IOException {
    log = start.firstRound() > 1 ? MetricsLog.resume(file, start.firstRound() - 1).log()
        : new MetricsLog(file);
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
      throws IOException {
    log.write(round);
  }

  @Override
  public void close() throws IOException {
    if (log != null) {
      log.close();
    }
  }
}
