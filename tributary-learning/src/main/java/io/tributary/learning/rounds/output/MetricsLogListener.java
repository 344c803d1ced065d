package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunStart;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Appends each round to a {@link MetricsLog} ({@code metrics.jsonl}) as it ends, for any binding.
 * A new run creates the file, which must not exist; a resumed run cuts the file back to the round
 * before its first (dropping later rounds and a half-written line; restoring that round's line
 * from the start's earlier rounds when a kill came between its checkpoint and its line) and
 * appends after it. Tell it after the {@link CheckpointListener}, so that a round's line follows
 * its checkpoint.
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
    int after = start.firstRound() - 1;
    if (after == 0) {
      log = new MetricsLog(file);
      return;
    }
    // The resumed round's line, as the checkpoint held it (RunResume): a run killed after the
    // checkpoint and before the line gets it back.
    List<RoundRecord> previous = start.previous();
    Optional<String> last = !previous.isEmpty() && previous.getLast().round() == after
        ? Optional.of(MetricsLog.toJson(previous.getLast())) : Optional.empty();
    log = MetricsLog.resume(file, after, last).log();
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
