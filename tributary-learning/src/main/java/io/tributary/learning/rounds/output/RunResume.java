package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.RoundRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a stopped or killed run goes on from, read the one way every binding reads it: the newest
 * checkpoint of the run folder's {@code model.zip} and the rounds of its {@code metrics.jsonl} up
 * to that checkpoint (a later line, or a half-written one, belongs to rounds the resumed run
 * repeats; the checkpointed round's own line, written after the checkpoint, comes from the
 * checkpoint when a kill came between the two). Reading changes nothing; the listeners that go on writing the files cut them back.
 *
 * @param checkpoint the newest checkpoint: the model, the round, the optimizer's and the
 *     aggregator's state, the training configuration
 * @param previous the rounds up to the checkpoint's, in order, as the run recorded them
 */
public record RunResume(RoundCheckpoints.Checkpoint checkpoint, List<RoundRecord> previous) {
  public RunResume {
    previous = List.copyOf(previous);
  }

  /**
   * The resume point of the run in {@code dir}, whose rounds are of {@code kind} ({@code
   * CENTRAL} for a simulation, {@code FEDERATED} for a server), after {@code check} accepted the
   * newest checkpoint's tag.
   *
   * @throws IOException when the folder holds no checkpoint, the checkpoint or the log cannot be
   *     read, the log holds fewer rounds than the checkpoint or rounds of another kind of run
   *     ({@link RunFileException} for what a run did not write)
   */
  public static RunResume read(Path dir, RoundRecord.EvaluationKind kind,
      RoundCheckpoints.TagCheck check) throws IOException {
    Path file = dir.resolve(RoundCheckpoints.FILE);
    if (!Files.isRegularFile(file)) {
      throw new RunFileException("has no checkpoint to resume from (no " + RoundCheckpoints.FILE
          + "; the run stopped before its first checkpoint: start it again)");
    }
    RoundCheckpoints.Checkpoint c = RoundCheckpoints.readNewest(file, check);
    Path log = dir.resolve(MetricsLog.FILE);
    if (!Files.isRegularFile(log)) {
      throw new RunFileException("has a checkpoint of round " + c.round() + " but no "
          + MetricsLog.FILE);
    }
    return new RunResume(c, MetricsLog.read(log, (int) c.round(), kind,
        c.metricsLine()));
  }

  /** The round the checkpoint covers, after which the run goes on. */
  public int round() {
    return (int) checkpoint.round();
  }
}
