package io.tributary.learning.rounds.output;

import io.tributary.learning.rounds.Checkpoints;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A run's checkpoints in {@code model.zip} ({@link RoundCheckpoints}), for any binding: one tag
 * per checkpointed round holding the model, the server optimizer's and the aggregator's state
 * ({@link UpdaterState}), the training settings the run records and, where the binding has one,
 * the model's graph. The run's {@link RunStart#checkpoints} says every how many rounds and what
 * each records; the last round always gets one, and so does the last round of a run stopped
 * between rounds on request, due or not, so that a resume goes on exactly where it stopped.
 *
 * <p>Checkpoints are written on a thread of their own, one at a time and in round order, while
 * the next rounds train. Each write replaces the file atomically and waits for the disk (fsync of
 * the file and its folder), which the rounds need not wait for: in the FedProx paper's 200-round
 * protocol the twenty checkpoints held the rounds up by about 0.3 s (docs/benchmarks.md,
 * "Simulation"). A failed write is reported by the next round's checkpoint or by {@link #close},
 * which waits for the last write, so a run ends only once its checkpoints are on disk.
 */
public final class CheckpointListener implements RoundListener {
  private final Path file;
  private Checkpoints settings;
  private int lastRound;
  private RoundCheckpoints checkpoints;
  private ExecutorService writer;
  /** The write in flight, if any; touched only by the thread that runs the rounds. */
  private Future<?> pending;
  /** The last round told, its model and state, and the last round checkpointed. */
  private int lastTold;
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
    this.writer = Executors.newSingleThreadExecutor(
        Thread.ofPlatform().name("tributary-checkpoints").daemon(true).factory());
  }

  @Override
  public void started(RunStart start) {
    if (writer == null) {
      setUp(start.lastRound(), start.checkpoints());
    }
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
      throws IOException {
    roundEnded(round, parameters, Optional.empty());
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    requireSetUp();
    lastTold = round.round();
    lastParameters = parameters;
    lastUpdater = updater;
    if (settings.due(round.round(), lastRound)) {
      save(round.round(), parameters, updater);
    }
  }

  /**
   * Waits for the checkpoints; a run stopped between rounds on request also gets a checkpoint of
   * its last round, due or not.
   */
  @Override
  public void finished(RunEnd end) throws IOException {
    if (writer == null) {
      return;
    }
    if (end.finalParameters().isPresent() && lastTold > lastSaved) {
      save(lastTold, lastParameters, lastUpdater);
    }
    awaitWritten();
  }

  /** The tag of round {@code round}, zero-padded so that tags sort by round. */
  public String tag(int round) {
    requireSetUp();
    return checkpoints.tag(round);
  }

  /**
   * Starts writing the checkpoint of {@code round} from {@code parameters}, which must not change
   * afterwards (tensors are immutable), once the previous checkpoint is on disk.
   *
   * @throws IOException if the previous checkpoint could not be written
   */
  public void save(int round, Map<String, Tensor> parameters, Optional<UpdaterState> updater)
      throws IOException {
    requireSetUp();
    awaitWritten();
    lastSaved = round;
    pending = writer.submit(() -> {
      checkpoints.write(round, parameters, updater, settings.record(),
          settings.graph().map(g -> g.duplicate()).orElse(null));
      return null;
    });
  }

  /**
   * Waits until every checkpoint asked for is on disk.
   *
   * @throws IOException if the last one could not be written
   */
  public void awaitWritten() throws IOException {
    Future<?> last = pending;
    if (last == null) {
      return;
    }
    pending = null;
    try {
      last.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing a checkpoint to " + file);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("writing a checkpoint to " + file, cause);
    }
  }

  /** Waits for the last checkpoint (see {@link #awaitWritten}), then stops the writing thread. */
  @Override
  public void close() throws IOException {
    if (writer == null) {
      return;
    }
    try {
      awaitWritten();
    } finally {
      writer.shutdown();
    }
  }

  private void requireSetUp() {
    if (writer == null) {
      throw new IllegalStateException("checkpoints into " + file + " are set up when the run "
          + "starts: call started first, or give the settings when constructing");
    }
  }
}
