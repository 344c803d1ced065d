package io.tributary.simulation.output;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationStart;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SequencedMap;

/**
 * Appends each round to a {@link MetricsLog} ({@code metrics.jsonl}) as it ends. A new run
 * creates the file, which must not exist; a resumed run cuts the file back to the checkpoint's
 * round (dropping later rounds and a half-written line) and appends after it.
 */
public final class MetricsLogListener implements SimulationListener {
  private final Path file;
  private MetricsLog log;

  /** Writes {@code file}. */
  public MetricsLogListener(Path file) {
    this.file = file;
  }

  @Override
  public void started(SimulationStart start) throws IOException {
    log = start.resumed() ? MetricsLog.resume(file, start.firstRound() - 1).log()
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
