package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.Checkpoints;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A run's checkpoints in {@code model.zip} ({@link RoundCheckpoints}), for any binding: one tag
 * per checkpointed round holding the model, the server optimizer's and the aggregator's state
 * ({@link UpdaterState}), the training settings the run records, the round's line of {@code
 * metrics.jsonl} ({@link RoundCheckpoints#METRICS_LINE}) and, where the binding has one, the
 * model's graph. The run's {@link RunStart#checkpoints} says every how many rounds and what each
 * records; the last round always gets one, and so does the last round of a run stopped between
 * rounds on request, due or not, so that a resume goes on exactly where it stopped.
 *
 * <p>A round's checkpoint is on disk when {@link #roundEnded} returns: the first creates the
 * file atomically (temporary file, fsync, rename, fsync of the folder); later ones are added in
 * place, journaled ({@link RoundCheckpoints}), so a run killed at any point leaves the previous
 * checkpoints or the new one, never a part, once a resume has read it. Told before the listeners that
 * report the round ({@code metrics.jsonl}, progress), it makes their "round N done" mean that
 * round N's checkpoint is on disk; a kill between the checkpoint and the log's line loses
 * nothing, since a resume restores the line from the checkpoint ({@link MetricsLog#resume}).
 * Each checkpoint costs its own bytes, however many came before, which the next round waits for.
 */
public final class CheckpointListener implements RoundListener {
  private final Path file;
  private Checkpoints settings;
  private int lastRound;
  private RoundCheckpoints checkpoints;
  /** The last round told, its model and state, and the last round checkpointed. */
  private RoundRecord lastTold;
  private Map<String, Tensor> lastParameters;
  private Optional<UpdaterState> lastUpdater = Optional.empty();
  private int lastSaved;

  /** Checkpoints into {@code file} (a run's {@code model.zip}) as the run's start says. */
  public CheckpointListener(Path file) {
    this.file = Objects.requireNonNull(file, "file");
  }

  /**
   * Checkpoints into {@code file} as {@code settings} say, for a run whose last round is {@code
   * lastRound}, whatever its start says (for a binding's files set up before the run starts).
   *
   * @throws IllegalArgumentException when {@code lastRound} is less than 1
   */
  public CheckpointListener(Path file, int lastRound, Checkpoints settings) {
    this(file);
    if (lastRound < 1) {
      throw new IllegalArgumentException("a run has at least 1 round, not " + lastRound);
    }
    setUp(lastRound, settings);
  }

  private void setUp(int rounds, Checkpoints s) {
    this.lastRound = rounds;
    this.settings = Objects.requireNonNull(s, "settings");
    this.checkpoints = new RoundCheckpoints(file, rounds);
  }

  @Override
  public void started(RunStart start) {
    if (checkpoints == null) {
      setUp(start.lastRound(), start.checkpoints());
    }
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
      throws IOException {
    roundEnded(round, parameters, Optional.empty());
  }

  /** Writes the round's checkpoint when one is due: on disk when this returns. */
  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    requireSetUp();
    lastTold = round;
    lastParameters = parameters;
    lastUpdater = updater;
    if (settings.due(round.round(), lastRound)) {
      save(round, parameters, updater);
    }
  }

  /** A run stopped between rounds on request also gets a checkpoint of its last round. */
  @Override
  public void finished(RunEnd end) throws IOException {
    if (checkpoints == null) {
      return;
    }
    if (end.finalParameters().isPresent() && lastTold != null
        && lastTold.round() > lastSaved) {
      save(lastTold, lastParameters, lastUpdater);
    }
  }

  /** Closes the checkpoints' file. */
  @Override
  public void close() throws IOException {
    if (checkpoints != null) {
      checkpoints.close();
    }
  }

  /** The tag of round {@code round}, zero-padded so that tags sort by round. */
  public String tag(int round) {
    requireSetUp();
    return checkpoints.tag(round);
  }

  /**
   * Writes the checkpoint of {@code round} from {@code parameters}, with the round's line of
   * {@code metrics.jsonl}; on disk when this returns.
   *
   * @throws IOException if the checkpoint could not be written (the earlier ones are intact)
   */
  public void save(RoundRecord round, Map<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    requireSetUp();
    SequencedMap<String, String> props = new LinkedHashMap<>(settings.record().properties());
    props.put(RoundCheckpoints.METRICS_LINE, MetricsLog.toJson(round));
    checkpoints.write(round.round(), parameters, updater,
        settings.record().withProperties(props),
        settings.graph().map(g -> g.duplicate()).orElse(null));
    lastSaved = round.round();
  }

  private void requireSetUp() {
    if (checkpoints == null) {
      throw new IllegalStateException("checkpoints into " + file + " are set up when the run "
          + "starts: call started first, or give the settings when constructing");
    }
  }
}
