package io.tributary.flower.server;

import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.Checkpoints;
import io.tributary.learning.rounds.RoundJson;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundRecord.EvaluationKind;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.learning.rounds.output.CheckpointListener;
import io.tributary.learning.rounds.output.FinalModelListener;
import io.tributary.learning.rounds.output.MetricsLog;
import io.tributary.learning.rounds.output.ProgressListener;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.learning.rounds.output.RunIdentity;
import io.tributary.learning.rounds.output.RunLock;
import io.tributary.format.ModelAppender;
import io.tributary.format.ModelFile;
import io.tributary.learning.rounds.report.HtmlReport;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.IntToDoubleFunction;

/**
 * The files a server run writes in its directory as rounds end, as a {@link RoundListener} to
 * pass to {@link FlowerServer#run(RoundListener)}: a line of {@code metrics.jsonl} ({@link
 * MetricsLog}, the simulator's mapping of a round), a {@code round-NNNN} tag in {@code model.zip}
 * (learning's {@link CheckpointListener}, the simulator's checkpoints, with the server
 * optimizer's and the aggregator's state) and, when asked for, the progress lines of learning's
 * {@link ProgressListener}; the checkpoint is on disk (written atomically, fsynced) before the
 * round's line and progress say the round is done, so a server killed at any point resumes from
 * the last round they report;
 * {@link #finished} (which the server calls when the run ends) and {@link #finish} write {@code
 * report.html} ({@link HtmlReport}, the simulator's page with a server's charts).
 *
 * <p>A new run creates {@code metrics.jsonl}, which must not exist; a run resumed after round
 * {@code n} ({@link Builder#resumedAfter}; {@link InitialParameters#resume} reads that round)
 * cuts the file back to its first {@code n} rounds and appends after them. Close it when the run
 * ends.
 */
public final class ServerRunFiles implements RoundListener {
  /** The report's file name in a run's directory. */
  public static final String REPORT = "report.html";
  /** The final model's file name in a run's directory. */
  public static final String FINAL = "final.npz";

  private final Path dir;
  private final MetricsLog metrics;
  private final List<RoundRecord> history;
  private final String title;
  private final SequencedMap<String, String> settings;
  private final CheckpointListener checkpoints;
  private final Optional<ProgressListener> progress;
  private final Optional<IntToDoubleFunction> epsilon;
  private final RunLock lock;
  private boolean closed;

  /**
   * The files of a run in a directory, and the kind of run each says the directory holds: a
   * server refuses a directory holding any of them for a new run.
   */
  private static final SequencedMap<String, String> RUN_FILES = new LinkedHashMap<>();

  static {
    RUN_FILES.put("config.json", "a tributary simulate run");
    RUN_FILES.put(MetricsLog.FILE, "a run");
    RUN_FILES.put(RoundCheckpoints.FILE, "a run's checkpoints");
    RUN_FILES.put("final.npz", "a run's final model");
    RUN_FILES.put(REPORT, "a run's report");
  }

  /**
   * Refuses a directory that holds a run already (of a server or of {@code tributary
   * simulate}), naming the file that shows it, before anything is written.
   *
   * @throws RunFileException when it holds one
   */
  public static void requireNoRun(Path dir) throws RunFileException {
    for (var e : RUN_FILES.entrySet()) {
      if (Files.exists(dir.resolve(e.getKey()))) {
        throw new RunFileException(dir + " holds " + e.getValue() + " already (" + e.getKey()
            + "); choose another directory");
      }
    }
  }

  private ServerRunFiles(Builder b, MetricsLog metrics, List<RoundRecord> earlier,
      RunLock lock) {
    this.lock = lock;
    this.dir = b.dir;
    this.metrics = metrics;
    this.history = new ArrayList<>(earlier);
    this.title = b.title;
    this.settings = new LinkedHashMap<>(b.settings);
    this.progress = b.progress.map(out -> new ProgressListener(out,
        ProgressListener.Style.LINES, b.rounds, b.resumedAfter + 1));
    this.epsilon = b.epsilon;
    SequencedMap<String, String> props = new LinkedHashMap<>(b.properties);
    props.putAll(b.identity.orElse(new RunIdentity(ServerConfig.RUN_KIND,
        new LinkedHashMap<>(), 0)).properties());
    // A server's checkpoint every round: its clients may leave at any time.
    this.checkpoints = new CheckpointListener(b.dir.resolve(RoundCheckpoints.FILE), b.rounds,
        new Checkpoints(1, TrainingConfig.of("", b.hyperparameters).withProperties(props),
            Optional.empty()));
  }

  /**
   * A builder of the files of a run of {@code rounds} rounds (the server's {@link
   * ServerConfig#rounds}) in the directory {@code dir}, which must exist.
   *
   * @throws IllegalArgumentException if {@code rounds} is less than 1
   */
  public static Builder builder(Path dir, int rounds) {
    return new Builder(dir, rounds);
  }

  /** The settings of a {@link ServerRunFiles}; {@link #build} opens {@code metrics.jsonl}. */
  public static final class Builder {
    private final Path dir;
    private final int rounds;
    private Optional<PrintWriter> progress = Optional.empty();
    private Optional<IntToDoubleFunction> epsilon = Optional.empty();
    private int resumedAfter;
    private final SequencedMap<String, Double> hyperparameters = new LinkedHashMap<>();
    private final SequencedMap<String, String> properties = new LinkedHashMap<>();
    private String title = "tributary server";
    private Optional<RunIdentity> identity = Optional.empty();
    private final SequencedMap<String, String> settings = new LinkedHashMap<>();

    private Builder(Path dir, int rounds) {
      this.dir = Objects.requireNonNull(dir, "dir");
      if (rounds < 1) {
        throw new IllegalArgumentException("a run has at least 1 round, not " + rounds);
      }
      this.rounds = rounds;
    }

    /**
     * Prints each round's progress line to {@code out} ({@link ProgressListener#federatedLine}),
     * and the round's failures.
     */
    public Builder progress(PrintWriter out) {
      this.progress = Optional.of(out);
      return this;
    }

    /**
     * Records the algorithm in each checkpoint: its proximal coefficient as the hyperparameter
     * {@code mu} and its name as the property {@code algorithm}.
     */
    public Builder algorithm(io.tributary.learning.FederatedAlgorithm algorithm) {
      hyperparameters.put("mu", algorithm.mu());
      properties.put("algorithm", algorithm.name());
      return this;
    }

    /** Records the command that started the run in each checkpoint, as the property {@code command}. */
    public Builder command(String command) {
      properties.put("command", Objects.requireNonNull(command, "command"));
      return this;
    }

    /**
     * Adds the privacy spent so far to each round's record, as the algorithm metric {@code
     * epsilon}: {@code epsilonAfterRound} maps a round (from 1) to the epsilon of every round up
     * to it (for differential privacy, which the caller accounts).
     */
    public Builder epsilonAfterRound(IntToDoubleFunction epsilonAfterRound) {
      this.epsilon = Optional.of(epsilonAfterRound);
      return this;
    }

    /**
     * The heading and the settings table of {@code report.html} (see {@link #finish}); without
     * them the page is headed {@code tributary server} and lists no settings.
     *
     * @param title the page heading, such as {@code fedavg server on 0.0.0.0:8080}
     * @param settings the server's settings as they are shown, in order
     */
    public Builder report(String title, SequencedMap<String, String> settings) {
      this.title = Objects.requireNonNull(title, "title");
      this.settings.clear();
      this.settings.putAll(settings);
      return this;
    }

    /**
     * Records {@code identity} (the server's settings and seed, {@link ServerConfig#runIdentity})
     * in each checkpoint; a resumed run's newest checkpoint must carry the same one. Without it
     * the checkpoints record a server run with no settings and seed 0, and a resume checks
     * nothing beyond the kind of run.
     */
    public Builder identity(RunIdentity identity) {
      this.identity = Optional.of(identity);
      return this;
    }

    /**
     * Continues the files of a run stopped after round {@code round}; 0 (the default) starts a
     * new run.
     *
     * @throws IllegalArgumentException if {@code round} is negative
     */
    public Builder resumedAfter(int round) {
      if (round < 0) {
        throw new IllegalArgumentException("a run resumes after round 0 or later, not " + round);
      }
      this.resumedAfter = round;
      return this;
    }

    /**
     * Locks the directory ({@link RunLock}), then opens {@code metrics.jsonl}: creates it for a
     * new run (refusing a directory that holds any run already, {@link #requireNoRun}), cuts it
     * back to the resumed round for a resumed one, after checking that the newest checkpoint
     * carries this run's identity; {@code model.zip} is created or added to by each round.
     * Every refusal comes before anything is written: the directory is then as it was.
     *
     * @throws IOException when another process writes the directory, the file cannot be created,
     *     or (resumed) the checkpoint is of another run, or the file holds fewer rounds or lines
     *     a run did not write
     */
    public ServerRunFiles build() throws IOException {
      Path file = dir.resolve(MetricsLog.FILE);
      RunLock lock = RunLock.acquire(dir);
      try {
        if (resumedAfter == 0) {
          requireNoRun(dir);
          return new ServerRunFiles(this, new MetricsLog(file), List.of(), lock);
        }
        Optional<String> lastLine;
        // A checkpoint killed midway is undone first, as the resume's reader does.
        ModelAppender.recover(dir.resolve(RoundCheckpoints.FILE));
        try (ModelFile m = ModelFile.open(dir.resolve(RoundCheckpoints.FILE))) {
          if (identity.isPresent()) {
            identity.get().requireSame(m.newest().name(), m.newest().trainingConfig());
          }
          // The resumed round's line as its checkpoint holds it: a server killed after the
          // checkpoint and before the line gets the line back.
          lastLine = m.newest().trainingConfig().round() == resumedAfter
              ? Optional.ofNullable(m.newest().trainingConfig().properties()
                  .get(RoundCheckpoints.METRICS_LINE))
              : Optional.empty();
        }
        MetricsLog.Resumed resumed = MetricsLog.resume(file, resumedAfter, lastLine);
        // The earlier rounds stay in the report; a line that is not a server's round is left
        // out.
        List<RoundRecord> earlier = new ArrayList<>();
        for (String line : resumed.kept()) {
          try {
            RoundRecord r = RoundJson.parse(line);
            if (r.evaluation() == EvaluationKind.FEDERATED) {
              earlier.add(r);
            }
          } catch (IllegalArgumentException e) {
            // Not a round this server wrote: the report shows the rounds it can read.
          }
        }
        return new ServerRunFiles(this, resumed.log(), earlier, lock);
      } catch (IOException | RuntimeException e) {
        lock.discard();
        throw e;
      }
    }
  }

  /** Writes the round's files without optimizer state. */
  @Override
  public void roundEnded(RoundRecord m, SequencedMap<String, Tensor> parameters)
      throws IOException {
    roundEnded(m, parameters, Optional.empty());
  }

  /**
   * Writes the round's checkpoint (with the server optimizer's state, if any), on disk before
   * anything says the round is done, then its line of {@code metrics.jsonl}, then prints its
   * progress.
   */
  @Override
  public void roundEnded(RoundRecord m, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    if (epsilon.isPresent()) {
      SequencedMap<String, Double> figures = new LinkedHashMap<>(m.algorithmMetrics());
      figures.put("epsilon", epsilon.get().applyAsDouble(m.round()));
      m = m.withAlgorithmMetrics(figures);
    }
    // The checkpoint first (on disk when it returns), then the line and the progress that say the
    // round is done: a server killed after either resumes from this round's checkpoint.
    checkpoints.roundEnded(m, parameters, updater);
    metrics.write(m);
    history.add(m);
    if (progress.isPresent()) {
      progress.get().round(m);
    }
  }

  /**
   * Writes {@code report.html}: the run's rounds so far (a resumed run's earlier ones included)
   * as one self-contained page with the final figures, the charts, the settings of {@link
   * Builder#report} and a table of every round. Call it when the run ends, completed or stopped;
   * a later call writes the page again.
   *
   * @param outcome one sentence on how the run ended, such as {@code completed 10 rounds}
   * @return the file written
   * @throws IOException when the file cannot be written
   */
  public Path finish(String outcome) throws IOException {
    Path file = dir.resolve(REPORT);
    Files.writeString(file, HtmlReport.render(title, Objects.requireNonNull(outcome, "outcome"),
        settings, history, EvaluationKind.FEDERATED), StandardCharsets.UTF_8);
    return file;
  }

  /**
   * Writes {@code report.html} with the run's outcome, as {@link #finish} does, and {@code
   * final.npz} (uncompressed) when the run ended with a model: completed, or stopped between
   * rounds on request.
   */
  @Override
  public void finished(RunEnd end) throws IOException {
    checkpoints.finished(end);
    finish(end.outcome());
    new FinalModelListener(dir.resolve(FINAL)).finished(end);
  }

  /** The rounds ended so far, a resumed run's earlier ones first, in order. */
  public List<RoundRecord> rounds() {
    return List.copyOf(history);
  }

  /**
   * Closes {@code metrics.jsonl} and {@code model.zip} and releases the directory's lock; a
   * later call does nothing.
   */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      try (CheckpointListener c = checkpoints) {
        metrics.close();
      } finally {
        lock.discard();
      }
    }
  }
}
