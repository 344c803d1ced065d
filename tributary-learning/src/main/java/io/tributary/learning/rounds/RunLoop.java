package io.tributary.learning.rounds;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * The one run over rounds of every binding (the simulator, the Flower servers): tells its
 * listener the run's start, runs the rounds through a {@link RoundLoop}, tells the listener each
 * round, stops between rounds when asked, and tells the listener how the run ended, in the same
 * words everywhere. A binding only builds the {@link RoundLoop} (its population and failure
 * policy) and a {@link RoundRecorder}.
 *
 * <pre>{@code
 * try (RunLoop run = new RunLoop(listener, stop)) {
 *   run.start(start);
 *   try {
 *     RunLoop.Finished done = run.rounds(loop, state, lastRound, recorder);
 *   } catch (RuntimeException e) {
 *     run.stopped(e);   // tells the listener, then the caller rethrows or reports
 *     throw e;
 *   }
 * }
 * }</pre>
 *
 * <p>A run stops between rounds when {@link RunStop#request} was called (from any thread) or a
 * listener's {@link RoundListener#stopAfter} answers with a reason; such a run ends with the
 * model of its last round, as a completed one does, and its checkpoints let it be resumed.
 */
public final class RunLoop implements AutoCloseable {
  private final RoundListener listener;
  private final RunStop stop;
  private final List<RoundRecord> rounds = new ArrayList<>();
  private int firstRound;
  private boolean started;
  private boolean finished;
  private int running;

  /**
   * A run telling {@code listener} (use {@link RoundListeners#of} for several), stopped between
   * rounds when {@code stop} is requested.
   */
  public RunLoop(RoundListener listener, RunStop stop) {
    this.listener = Objects.requireNonNull(listener, "listener");
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  /** The end of a run that did not fail: completed, or stopped between rounds on request. */
  public record Finished(RunEnd end, StructValue state, double seconds) {}

  /** What the listener is told when the run ends. */
  private record End(List<RoundRecord> rounds,
      Optional<SequencedMap<String, Tensor>> finalParameters, String outcome)
      implements RunEnd {}

  /**
   * Tells the listener the run starts; its earlier rounds (a resumed run's) begin the run's
   * record.
   *
   * @throws IOException when the listener refuses to start
   * @throws IllegalStateException when already started
   */
  public void start(RunStart start) throws IOException {
    if (started) {
      throw new IllegalStateException("the run has started already");
    }
    rounds.addAll(start.previous());
    firstRound = start.firstRound();
    running = firstRound;
    listener.started(start);
    started = true;
  }

  /**
   * Runs the rounds from the start's first to {@code lastRound}, from {@code state}, telling the
   * listener each, then tells it the run's end: {@code Completed N rounds in S s.}, or {@code
   * Stopped after round N: why.} when stopped on request.
   *
   * @return the end told, the state after the last round run and the seconds the rounds took
   * @throws IOException when the listener fails (the caller calls {@link #stopped})
   * @throws InterruptedException when waiting for clients is interrupted
   * @throws IllegalStateException when not started
   */
  public Finished rounds(RoundLoop loop, StructValue state, int lastRound,
      RoundRecorder recorder) throws IOException, InterruptedException {
    if (!started || finished) {
      throw new IllegalStateException("rounds run after start and before the end");
    }
    long t0 = System.nanoTime();
    StructValue s = state;
    Optional<String> why = stop.requested();
    for (int r = firstRound; r <= lastRound && why.isEmpty(); r++) {
      running = r;
      RoundReport report = loop.round(r, s, listener);
      s = report.state();
      RoundRecord record = recorder.record(report);
      rounds.add(record);
      listener.roundEnded(record, recorder.parameters(s), UpdaterState.of(s));
      why = listener.stopAfter(record).or(stop::requested);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    int last = rounds.isEmpty() ? 0 : rounds.getLast().round();
    String outcome = why.isPresent() && last < lastRound
        ? "Stopped after round " + last + ": " + oneLine(why.get()) + "."
        : String.format(Locale.ROOT, "Completed %d rounds in %.1f s%s.", lastRound, seconds,
            firstRound > 1 ? " (resumed after round " + (firstRound - 1) + ")" : "");
    End end = new End(List.copyOf(rounds), Optional.of(recorder.parameters(s)), outcome);
    finished = true;
    listener.finished(end);
    return new Finished(end, s, seconds);
  }

  /**
   * Tells the listener that the run stopped on {@code cause} in the round it was running:
   * {@code Stopped in round N: message}; nothing when the run had not started or was told its
   * end already. A listener's failure here is added to {@code cause} as suppressed.
   *
   * @return the end told, or empty when nothing was told
   */
  public Optional<RunEnd> stopped(Throwable cause) {
    return stopped("Stopped in round " + running + ": " + (cause instanceof InterruptedException
        ? "interrupted" : oneLine(String.valueOf(cause.getMessage()))), cause);
  }

  /**
   * Tells the listener that the run stopped, in the words of {@code outcome} (such as {@code
   * Could not prepare the model: ...}); see {@link #stopped(Throwable)}.
   */
  public Optional<RunEnd> stopped(String outcome, Throwable cause) {
    if (!started || finished) {
      return Optional.empty();
    }
    finished = true;
    End end = new End(List.copyOf(rounds), Optional.empty(), outcome);
    try {
      listener.finished(end);
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
    return Optional.of(end);
  }

  /** Every round finished so far, a resumed run's earlier ones first. */
  public List<RoundRecord> rounds() {
    return List.copyOf(rounds);
  }

  /**
   * Closes the listener, whatever happened.
   *
   * @throws IOException when the listener could not finish writing
   */
  @Override
  public void close() throws IOException {
    listener.close();
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\R", " ");
  }
}
