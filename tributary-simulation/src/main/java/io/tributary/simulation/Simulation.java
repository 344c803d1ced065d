package io.tributary.simulation;

import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Type;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.local.LocalTraining;
import io.tributary.graph.models.Model;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundListeners;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunLoop;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.RunStop;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.learning.rounds.output.RunFileException;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.simulation.engine.EngineUnavailableException;
import io.tributary.simulation.internal.FederatedRun;
import io.tributary.learning.rounds.output.ProgressListener;
import io.tributary.simulation.output.RunDirectory;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A federated simulation: what {@code tributary simulate} runs, as a library. It loads the data,
 * builds the model and the algorithm's computations, runs the rounds through the runtime and tells
 * its {@link SimulationListener}s about each; the run's files are listeners too.
 *
 * <pre>{@code
 * SimulationSettings settings = SimulationSettings.builder()
 *     .dataset(new DatasetSpec.Digits()).rounds(20).seed(7).out(Path.of("runs/digits"))
 *     .build();
 * SimulationResult result = Simulation.builder(settings).writeFiles().build().run();
 * double accuracy = result.history().last().testAccuracy();
 * }</pre>
 *
 * <p>The same settings give the same bits as {@code tributary simulate} with the same flags, on
 * any thread count: every random choice derives from the seed as {@link Seeds} documents.
 */
public final class Simulation {
  private final SimulationSettings settings;
  private final List<SimulationListener> listeners;
  private final boolean resume;
  private final ResumePoint held;
  private final RunStop stop = new RunStop();

  private Simulation(SimulationSettings settings, List<SimulationListener> listeners,
      boolean resume, ResumePoint held) {
    this.settings = settings;
    this.listeners = List.copyOf(listeners);
    this.resume = resume;
    this.held = held;
  }

  /** A builder of a simulation with {@code settings}. */
  public static Builder builder(SimulationSettings settings) {
    return new Builder(settings);
  }

  /** The run's settings. */
  public SimulationSettings settings() {
    return settings;
  }

  /**
   * Runs every round (for a resumed run, those after the checkpoint).
   *
   * @return the history and the final model
   * @throws SimulationDataException when the data cannot be read
   * @throws IllegalArgumentException when the data cannot be split as the settings ask (more
   *     shards than examples) or the model cannot take them, or a cluster engine cannot run the
   *     settings (an algorithm composed in code, {@code --dp}), or a resumed run's checkpoint
   *     does not hold the state of the run's server optimizer or aggregator
   * @throws SimulationStoppedException when the model cannot be prepared, the settings' engine
   *     cannot start, or a round fails beyond the tolerated failures (a cluster engine's failure
   *     included); the listeners were told
   * @throws IOException when a listener cannot write, or a resumed run's files are not a run's
   */
  public SimulationResult run() throws IOException, SimulationStoppedException {
    if (settings.engine() instanceof Engine.Cluster) {
      // Before any file is touched: what a cluster's workers cannot rebuild is refused here.
      SettingsCodec.encode(settings);
    }
    ResumePoint point = null;
    History previous = History.empty();
    if (held != null) {
      point = held;
      previous = new History(point.previous());
      requireServerState(point);
    } else if (resume) {
      Path config = settings.out().resolve(RunFiles.CONFIG);
      if (Files.isRegularFile(config)) {
        SettingsSchema.checkSame(Files.readString(config), settings, settings.out());
      }
      point = ResumePoint.read(settings.out(), SettingsSchema.identity(settings));
      // Checked before any file is touched: the run's files stay as they are.
      requireServerState(point);
      previous = new History(point.previous());
    }
    SimulationData data;
    Model model;
    try {
      data = SimulationData.load(settings);
    } catch (IOException e) {
      throw new SimulationDataException(SimulationData.location(settings), e);
    }
    UserModel chosen;
    try {
      chosen = UserModel.forRun(settings, data);
    } catch (IOException e) {
      throw new SimulationDataException(Path.of(settings.get(SettingsSchema.MODEL_FILE)), e);
    }
    model = chosen.model();
    if (point != null) {
      // Checked before any file is touched: a private aggregator's state (its round, the
      // adaptive clipping norm) must be in the checkpoint, and be the run's aggregator's.
      Aggregator aggregator = settings.dp().isPresent()
          ? settings.dp().get().aggregator(settings.clientsPerRound(), 0L)
          : settings.algorithm().aggregator();
      Optional<Type> stateType = aggregator.create(LocalTraining.modelType(model)).initialize()
          .map(c -> ((FederatedType) c.type().result()).member());
      UpdaterState saved = point.updater().orElse(new UpdaterState(0, List.of(), List.of()));
      try {
        saved.checkAggregator(stateType);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("resume: " + (held != null ? "the checkpoint given"
            : settings.out().resolve(RunFiles.MODEL) + "'s newest checkpoint")
            + " does not fit the run: " + e.getMessage() + "; start a new run");
      }
    }
    int first = point == null ? 1 : point.round() + 1;
    return rounds(new SimulationStart(settings, data, model, first, previous), point,
        chosen.initial());
  }

  private void requireServerState(ResumePoint point) {
    if (point.updater().map(UpdaterState::slots).orElse(List.of()).isEmpty()
        && !settings.algorithm().serverOptimizer().stateSlots()
            .isEmpty()) {
      throw new IllegalArgumentException("resume: the checkpoint holds no state of "
          + settings.algorithm().name() + "'s server optimizer (written by an older "
          + "version); start a new run");
    }
  }

  private SimulationResult rounds(SimulationStart start, ResumePoint point,
      Optional<SequencedMap<String, Tensor>> initial)
      throws IOException, SimulationStoppedException {
    List<SimulationListener> told = new ArrayList<>(listeners);
    LastRound last = new LastRound(settings.commandLine(), start.previous());
    // First, so that a listener that fails the round cannot leave it out of the checkpoint.
    told.addFirst(last);
    try (RunLoop run = new RunLoop(new Told(told, settings), stop)) {
      run.start(start);
      Throwable failure;
      String outcome;
      try (FederatedRun federated = new FederatedRun(settings, start.data(), start.model())) {
        if (point != null) {
          try {
            federated.restore(point.parameters(), point.updater());
          } catch (IllegalArgumentException e) {
            throw new RunFileException(settings.out().resolve(RunFiles.MODEL)
                + ": its checkpoint does not fit the run's model: " + e.getMessage());
          }
        } else {
          initial.ifPresent(federated::startFrom);
        }
        RunLoop.Finished done = run.rounds(federated.loop(), federated.state(),
            settings.rounds(), federated);
        return new SimulationResult(settings, new History(done.end().rounds()),
            done.end().finalParameters().orElseThrow(), done.seconds(),
            point == null ? 0 : point.round(), done.end().outcome(), last.point());
      } catch (ExecutionFailedException e) {
        failure = e;
        outcome = run.stopped(e).map(RunEnd::outcome).orElse(e.getMessage());
      } catch (GraphBindingException e) {
        failure = e;
        outcome = "Could not prepare the model: " + e.getMessage();
        run.stopped(outcome, e);
      } catch (EngineUnavailableException e) {
        failure = e;
        outcome = "Could not start the engine " + settings.engine() + ": " + e.getMessage();
        run.stopped(outcome, e);
      } catch (IOException | RuntimeException e) {
        run.stopped(e);
        throw e;
      } catch (InterruptedException e) {
        // A simulated population never waits; kept for a cluster engine's wait.
        Thread.currentThread().interrupt();
        failure = e;
        outcome = run.stopped(e).map(RunEnd::outcome).orElse("Stopped: interrupted");
      }
      throw new SimulationStoppedException(outcome, new History(run.rounds()), failure);
    }
  }

  /**
   * Asks the run to stop after the round in progress, for {@code why}, from any thread: that
   * round's listeners (checkpoints included) are told it, and {@link #run} returns its model
   * with the outcome {@code Stopped after round N: why.}; a resume goes on from there.
   */
  public void stop(String why) {
    stop.request(why);
  }

  /** Keeps the newest round's model and state as a {@link ResumePoint}, in memory. */
  private static final class LastRound implements SimulationListener {
    private final List<String> command;
    private final List<RoundRecord> rounds;
    private SequencedMap<String, Tensor> parameters;
    private Optional<UpdaterState> updater = Optional.empty();

    LastRound(List<String> command, List<RoundRecord> previous) {
      this.command = command;
      this.rounds = new ArrayList<>(previous);
    }

    @Override
    public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
        Optional<UpdaterState> updater) {
      rounds.add(round);
      this.parameters = parameters;
      this.updater = updater;
    }

    Optional<ResumePoint> point() {
      return parameters == null ? Optional.empty() : Optional.of(new ResumePoint(
          rounds.getLast().round(), parameters, command, updater, rounds));
    }
  }

  /** The simulation's listeners told as one {@link RoundListener}, with the simulation's events. */
  private record Told(List<SimulationListener> listeners, SimulationSettings settings)
      implements RoundListener {
    @Override
    public void started(RunStart start) throws IOException {
      for (SimulationListener l : listeners) {
        l.started((SimulationStart) start);
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
      for (SimulationListener l : listeners) {
        l.roundEnded(round, parameters, updater);
      }
    }

    @Override
    public Optional<String> stopAfter(RoundRecord round) {
      return RoundListeners.of(listeners).stopAfter(round);
    }

    @Override
    public void finished(RunEnd end) throws IOException {
      SimulationEnd told = new SimulationEnd(settings, new History(end.rounds()),
          end.finalParameters(), end.outcome());
      for (SimulationListener l : listeners) {
        l.finished(told);
      }
    }

    // A round's progress goes to every listener, as RoundListeners tells it.

    @Override
    public void roundStarted(int round) {
      RoundListeners.of(listeners).roundStarted(round);
    }

    @Override
    public void stage(int round, String stage, int clients) {
      RoundListeners.of(listeners).stage(round, stage, clients);
    }

    @Override
    public void clientReported(int round, String client) {
      RoundListeners.of(listeners).clientReported(round, client);
    }

    @Override
    public void clientFailed(int round, String client, String reason) {
      RoundListeners.of(listeners).clientFailed(round, client, reason);
    }

    @Override
    public void traffic(int round, long bytesUp, long bytesDown) {
      RoundListeners.of(listeners).traffic(round, bytesUp, bytesDown);
    }

    @Override
    public void stageEnded(int round, String stage, int reported, List<String> failures) {
      RoundListeners.of(listeners).stageEnded(round, stage, reported, failures);
    }

    @Override
    public void close() throws IOException {
      RoundListeners.of(listeners).close();
    }
  }

  /** A {@link RoundListener} told a simulation's events, as {@link SimulationListener}. */
  private record Adapter(RoundListener listener) implements SimulationListener {
    @Override
    public void started(SimulationStart start) throws IOException {
      listener.started(start);
    }

    @Override
    public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
        throws IOException {
      listener.roundEnded(round, parameters);
    }

    @Override
    public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
        Optional<UpdaterState> updater) throws IOException {
      listener.roundEnded(round, parameters, updater);
    }

    @Override
    public void finished(SimulationEnd end) throws IOException {
      listener.finished(end);
    }

    @Override
    public void roundStarted(int round) {
      listener.roundStarted(round);
    }

    @Override
    public void stage(int round, String stage, int clients) {
      listener.stage(round, stage, clients);
    }

    @Override
    public void clientReported(int round, String client) {
      listener.clientReported(round, client);
    }

    @Override
    public void clientFailed(int round, String client, String reason) {
      listener.clientFailed(round, client, reason);
    }

    @Override
    public void traffic(int round, long bytesUp, long bytesDown) {
      listener.traffic(round, bytesUp, bytesDown);
    }

    @Override
    public void stageEnded(int round, String stage, int reported, List<String> failures) {
      listener.stageEnded(round, stage, reported, failures);
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }

  /** Collects a simulation's listeners. */
  public static final class Builder {
    private final SimulationSettings settings;
    private final List<SimulationListener> listeners = new ArrayList<>();
    private boolean resume;
    private ResumePoint point;

    private Builder(SimulationSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Adds {@code listener}, told after those added before it. */
    public Builder listener(SimulationListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * Adds a listener of any binding, told after those added before it: its {@link
     * RoundListener#started(io.tributary.learning.rounds.RunStart) started}, {@code roundEnded},
     * {@link RoundListener#finished(io.tributary.learning.rounds.RunEnd) finished} and {@code
     * close} are called as a {@link SimulationListener}'s are. A {@link SimulationListener} goes
     * through {@link #listener(SimulationListener)}, whichever static type it is passed as.
     */
    public Builder listener(RoundListener listener) {
      Objects.requireNonNull(listener, "listener");
      return listener(listener instanceof SimulationListener s ? s : new Adapter(listener));
    }

    /** Shows each round on {@code err} in {@code style} (see {@link ProgressListener}). */
    public Builder progress(PrintWriter err, ProgressListener.Style style) {
      return listener(new ProgressListener(err, style));
    }

    /**
     * Writes every file of {@code tributary simulate} into the settings' output directory:
     * {@code config.json}, {@code clients.json}, {@code metrics.jsonl}, {@code model.zip},
     * {@code final.npz} and {@code report.html} (see {@link RunDirectory}).
     *
     * @throws IllegalArgumentException when the settings name no output directory
     */
    public Builder writeFiles() {
      RunDirectory.listeners(outDir()).forEach(this::listener);
      return this;
    }

    /**
     * Makes the run go on from the last checkpoint in the settings' output directory instead of
     * starting anew, as {@code tributary simulate --resume} does: the settings must be those the
     * run was started with (the thread count aside), and the results equal an uninterrupted
     * run's bit for bit. Combine with {@link #writeFiles()} to go on writing the run's files.
     *
     * @throws IllegalArgumentException when the settings name no output directory
     */
    public Builder resume() {
      outDir();
      this.resume = true;
      return this;
    }

    private Path outDir() {
      if (settings.out() == null) {
        throw new IllegalArgumentException("the settings name no output directory (out)");
      }
      return settings.out();
    }

    /**
     * Makes the run go on from {@code previous}, a run of the same settings that stopped between
     * rounds ({@link Simulation#stop}, a listener's {@code stopAfter}), from its checkpoint held
     * in memory ({@link SimulationResult#checkpoint}): no file is read, and the results equal an
     * uninterrupted run's bit for bit. The settings may differ from {@code previous}'s only in
     * what does not change results (threads, output directory).
     *
     * @throws IllegalArgumentException when {@code previous} holds no checkpoint or ran other
     *     settings, naming the first that differs
     */
    public Builder resumeFrom(SimulationResult previous) {
      Objects.requireNonNull(previous, "previous");
      ResumePoint point = previous.checkpoint().orElseThrow(() -> new IllegalArgumentException(
          "resumeFrom: the result holds no checkpoint (no round ran)"));
      try {
        SettingsSchema.checkSame(previous.settings().toJson(), settings, "the run given");
      } catch (SettingsFileException e) {
        throw new IllegalArgumentException("resumeFrom: " + e.getMessage(), e);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage().replaceFirst("^resume:", "resumeFrom:"),
            e);
      }
      return resumeFrom(point);
    }

    /**
     * Makes the run go on from {@code point}, a checkpoint held in memory (one of {@link
     * SimulationResult#checkpoint}, {@link ResumePoint#read}, or one a listener made from a
     * round's model and state), instead of starting anew: the results equal an uninterrupted
     * run's bit for bit when the settings are those the checkpoint's run was started with.
     *
     * @throws IllegalArgumentException when the checkpoint's command names other settings than
     *     these (the thread count and output directory aside), naming the first that differs
     */
    public Builder resumeFrom(ResumePoint point) {
      Objects.requireNonNull(point, "point");
      List<String> theirs = resultWords(point.command());
      List<String> mine = resultWords(settings.commandLine());
      if (!theirs.equals(mine)) {
        int i = 0;
        while (i < Math.min(theirs.size(), mine.size()) && theirs.get(i).equals(mine.get(i))) {
          i++;
        }
        throw new IllegalArgumentException("resumeFrom: the checkpoint's run has other "
            + "settings: it reads '" + String.join(" ", theirs.subList(Math.max(0, i - 1),
                Math.min(theirs.size(), i + 2))) + "' where these settings read '"
            + String.join(" ", mine.subList(Math.max(0, i - 1), Math.min(mine.size(), i + 2)))
            + "'");
      }
      this.point = point;
      return this;
    }

    /** {@code words} without the settings that do not change results: threads, out. */
    private static List<String> resultWords(List<String> words) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < words.size(); i++) {
        String w = words.get(i);
        if ((w.equals("--threads") || w.equals("--out")) && i + 1 < words.size()) {
          i++;
        } else {
          out.add(w);
        }
      }
      return out;
    }

    /**
     * The simulation.
     *
     * @throws IllegalArgumentException when both {@link #resume()} and {@link #resumeFrom} were
     *     asked for
     */
    public Simulation build() {
      if (resume && point != null) {
        throw new IllegalArgumentException("resume() reads the checkpoint from the output "
            + "directory and resumeFrom(...) takes one in memory: ask for one of them");
      }
      return new Simulation(settings, listeners, resume, point);
    }
  }
}
