package io.tributary.simulation.output;

import io.tributary.format.TrainingConfig;
import io.tributary.graph.GraphFb;
import io.tributary.graph.models.Model;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.learning.rounds.output.RoundCheckpoints;
import io.tributary.simulation.SettingsSchema;
import io.tributary.simulation.SimulationEnd;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.UserModel;
import io.tributary.simulation.SimulationStart;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code model.zip}: the global model as an ADR-0001 model file with one tag per checkpoint
 * ({@code round-0010}, {@code round-0020}, ...), each holding the parameters, the model's graph
 * and the run's training settings. The first checkpoint creates the file; later ones are appended
 * as new tags without rewriting the earlier ones.
 *
 * <p>Checkpoints are written on a thread of their own, one at a time and in round order, while
 * the next rounds train. Each write replaces the file atomically and waits for the disk (fsync of
 * the file and its folder), which the rounds need not wait for: in the FedProx paper's 200-round
 * protocol the twenty checkpoints held the rounds up by about 0.3 s (docs/benchmarks.md,
 * "Simulation"). A failed write is reported by the next {@link #save} or by {@link #close}, which
 * waits for the last write, so a run ends only once its checkpoints are on disk.
 */
public final class CheckpointListener implements SimulationListener {
  private final Path file;
  private ByteBuffer graph;
  /** The graph's roles, so that a checkpoint reads back as a model ({@link UserModel#read}). */
  private SequencedMap<String, String> roles;
  private SimulationSettings config;
  private RoundCheckpoints checkpoints;
  private ExecutorService writer;
  /** The write in flight, if any; touched only by the thread that calls {@link #save}. */
  private Future<?> pending;
  /** The last round told, its model and state, and the last round checkpointed. */
  private int lastRound;
  private Map<String, Tensor> lastParameters;
  private Optional<UpdaterState> lastUpdater = Optional.empty();
  private int lastSaved;

  /** Checkpoints into {@code file} (a run's {@code model.zip}), created by the first one. */
  public CheckpointListener(Path file) {
    this.file = file;
  }

  /** Checkpoints of {@code model} trained with {@code config} (what {@link #started} sets up). */
  CheckpointListener(Path file, Model model, SimulationSettings config) {
    this(file);
    setUp(model, config);
  }

  private void setUp(Model model, SimulationSettings settings) {
    this.graph = ByteBuffer.wrap(GraphFb.toBytes(model.graph())).asReadOnlyBuffer();
    this.roles = UserModel.roles(model);
    this.config = settings;
    this.checkpoints = new RoundCheckpoints(file, settings.rounds());
    this.writer = Executors.newSingleThreadExecutor(
        Thread.ofPlatform().name("tributary-checkpoints").daemon(true).factory());
  }

  @Override
  public void started(SimulationStart start) {
    setUp(start.model(), start.settings());
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
      throws IOException {
    roundEnded(round, parameters, Optional.empty());
  }

  @Override
  public void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    lastRound = round.round();
    lastParameters = parameters;
    lastUpdater = updater;
    if (due(round.round())) {
      save(round.round(), parameters, updater);
    }
  }

  /**
   * Waits for the checkpoints; a run stopped between rounds on request also gets a checkpoint of
   * its last round, due or not, so that a resume goes on exactly where it stopped.
   */
  @Override
  public void finished(SimulationEnd end) throws IOException {
    if (end.finalParameters().isPresent() && lastRound > lastSaved) {
      save(lastRound, lastParameters, lastUpdater);
    }
    awaitWritten();
  }

  /** Whether round {@code round} gets a checkpoint: every {@code --checkpoint-every}, and the last. */
  boolean due(int round) {
    return round % config.checkpointEvery() == 0 || round == config.rounds();
  }

  /** The tag of round {@code round}, zero-padded so that tags sort by round. */
  String tag(int round) {
    return checkpoints.tag(round);
  }

  /**
   * Starts writing the checkpoint of {@code round} from {@code parameters}, which must not change
   * afterwards (tensors are immutable), once the previous checkpoint is on disk.
   *
   * @throws IOException if the previous checkpoint could not be written
   */
  void save(int round, Map<String, Tensor> parameters) throws IOException {
    save(round, parameters, Optional.empty());
  }

  /** {@link #save(int, Map)} with the server optimizer's state, kept as updater state. */
  void save(int round, Map<String, Tensor> parameters, Optional<UpdaterState> updater)
      throws IOException {
    awaitWritten();
    lastSaved = round;
    pending = writer.submit(() -> {
      write(round, parameters, updater);
      return null;
    });
  }

  /**
   * Waits until every checkpoint asked for is on disk.
   *
   * @throws IOException if the last one could not be written
   */
  void awaitWritten() throws IOException {
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

  private void write(int round, Map<String, Tensor> parameters, Optional<UpdaterState> updater)
      throws IOException {
    SequencedMap<String, Double> hyper = new LinkedHashMap<>();
    hyper.put("learning_rate", config.learningRate());
    hyper.put("mu", config.mu());
    hyper.put("local_epochs", (double) config.localEpochs());
    hyper.put("batch_size", (double) config.batchSize());
    hyper.putAll(config.algorithm().hyperparameters());
    config.clientOptimizer().hyperparameters().forEach((k, v) -> hyper.put("client_" + k, v));
    SequencedMap<String, String> props = new LinkedHashMap<>();
    props.put("algorithm", config.algorithm().cliName());
    props.put("dataset", config.dataset().toString());
    props.put("command", config.shellCommand());
    props.putAll(roles);
    props.putAll(SettingsSchema.identity(config).properties());
    checkpoints.write(round, parameters, updater,
        TrainingConfig.of(config.clientOptimizer().name(), hyper).withProperties(props), graph);
  }
}
