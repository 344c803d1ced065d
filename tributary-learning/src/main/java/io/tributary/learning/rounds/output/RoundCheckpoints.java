package io.tributary.learning.rounds.output;

import io.tributary.format.ModelAppender;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelFormatException;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Tensor;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A run's {@code model.zip}: one ADR-0001 tag per checkpointed round ({@code round-0010}, ...,
 * zero-padded so that tags sort by round), each with the parameters, the training settings,
 * the server optimizer's state (updater state) and the aggregator's (properties under {@link
 * #AGGREGATOR_PREFIX}) where the algorithm keeps them, and, where there is one, the model's
 * graph. The first checkpoint creates the file (written whole and renamed into place); later
 * ones are added in place through a {@link ModelAppender} kept open, so the k-th checkpoint
 * costs its own bytes (and the file's tail, which names every entry), not a re-read or copy of
 * the earlier ones. A write killed midway leaves a journal from which {@link #readNewest} (and
 * the next writer) puts the earlier checkpoints back first. Close it when the run ends.
 * The simulator and the Flower server (through {@link CheckpointListener}) write
 * their checkpoints through this one class, and read them back ({@link #updaterState}) when a run
 * resumes.
 */
public final class RoundCheckpoints implements Closeable {
  /** The checkpoints' file name in a run's directory. */
  public static final String FILE = "model.zip";

  /**
   * The training configuration's hyperparameter holding a server optimizer's step count, beside
   * its state arrays (the tag's updater state, one array per slot and parameter).
   */
  public static final String OPTIMIZER_ROUND = "optimizer_round";

  /**
   * The prefix of the training configuration's properties holding a stateful aggregator's state,
   * one per tensor ({@code aggregator/round}, {@code aggregator/clip_norm}, ...), each {@code
   * dtype[dims] values}: {@code int64[] 3}, {@code float64[] 0.75}. Integers and floats are
   * written in decimal that reads back to the same bits; other dtypes as {@code 0x} and their
   * little-endian bytes in hex.
   */
  public static final String AGGREGATOR_PREFIX = "aggregator/";

  /**
   * The training configuration's property holding the checkpointed round's line of {@code
   * metrics.jsonl}, written with the checkpoint before the log's line: a run killed between the
   * two gets the line back from here when it resumes ({@link MetricsLog#resume}).
   */
  public static final String METRICS_LINE = "metrics_line";

  private final Path file;
  private final int digits;
  /** Open from the second checkpoint on: the file's index, kept between checkpoints. */
  private ModelAppender appender;

  /** Checkpoints of a run of {@code rounds} rounds into {@code file}. */
  public RoundCheckpoints(Path file, int rounds) {
    this.file = file;
    this.digits = Math.max(4, Integer.toString(rounds).length());
  }

  /** The tag of round {@code round}. */
  public String tag(int round) {
    return String.format(Locale.ROOT, "round-%0" + digits + "d", round);
  }

  /**
   * Writes round {@code round}'s checkpoint, on disk when this returns.
   *
   * @param training the training settings, its progress set to the round here
   * @param graph the model's graph ({@code graph.fb}), or null when the run has none (a server
   *     knows only the tensors)
   * @throws IOException when the file cannot be written (the earlier tags are then intact)
   */
  public void write(int round, Map<String, Tensor> parameters, TrainingConfig training,
      ByteBuffer graph) throws IOException {
    write(round, parameters, Optional.empty(), training, graph);
  }

  /**
   * Writes round {@code round}'s checkpoint with a server optimizer's and an aggregator's state:
   * the optimizer's slots become the training configuration's updater state names, each
   * parameter's slot arrays its updater state (in the parameters' order, which is the model's
   * depth-first order), and the step count the hyperparameter {@link #OPTIMIZER_ROUND}; each
   * aggregator state tensor becomes a property under {@link #AGGREGATOR_PREFIX}.
   *
   * @throws IOException when the file cannot be written (the earlier tags are then intact)
   * @throws IllegalArgumentException when the state does not have one entry per parameter
   */
  public void write(int round, Map<String, Tensor> parameters, Optional<UpdaterState> updater,
      TrainingConfig training, ByteBuffer graph) throws IOException {
    TagContents.Builder b = TagContents.builder();
    for (Map.Entry<String, Tensor> e : parameters.entrySet()) {
      b.parameter(e.getKey(), e.getValue());
    }
    TrainingConfig config = training.withProgress(0, 0, round);
    if (updater.isPresent() && !updater.get().aggregator().isEmpty()) {
      SequencedMap<String, String> props = new LinkedHashMap<>(config.properties());
      updater.get().aggregator().forEach((path, t) ->
          props.put(AGGREGATOR_PREFIX + path, AggregatorText.format(t)));
      config = config.withProperties(props);
    }
    if (updater.isPresent() && !updater.get().slots().isEmpty()) {
      UpdaterState u = updater.get();
      if (u.perTensor().size() != parameters.size()) {
        throw new IllegalArgumentException("optimizer state for " + u.perTensor().size()
            + " tensors, but " + parameters.size() + " parameters");
      }
      int i = 0;
      for (String name : parameters.keySet()) {
        b.updaterState(name, u.perTensor().get(i++));
      }
      SequencedMap<String, Double> h = new LinkedHashMap<>(config.hyperparameters());
      h.put(OPTIMIZER_ROUND, (double) u.round());
      config = new TrainingConfig(config.optimizer(), h, config.lossVariables(), u.slots(),
          config.iterationCount(), config.epochCount(), config.round(), config.properties());
    }
    b.trainingConfig(config);
    if (graph != null) {
      b.graph(graph);
    }
    TagContents contents = b.build();
    if (appender == null && !Files.exists(file)) {
      SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
      tags.put(tag(round), contents);
      ModelWriter.save(file, tags);
      return;
    }
    if (appender == null) {
      appender = ModelAppender.open(file);
    }
    appender.addTag(tag(round), contents);
  }

  /** Closes the file; the checkpoints written are on disk already. */
  @Override
  public void close() throws IOException {
    if (appender != null) {
      appender.close();
      appender = null;
    }
  }

  /**
   * A checkpoint read back: the newest tag of a run's {@code model.zip}, what a resumed run goes
   * on from.
   *
   * @param tag the tag's name, such as {@code round-0010}
   * @param round the round the checkpoint was written after, as its training configuration
   *     records it
   * @param parameters the model after that round, in the file's order
   * @param training the tag's training configuration (the settings the run recorded in it)
   * @param updater the server optimizer's state after that round ({@link #updaterState}); empty
   *     when the tag holds none
   */
  public record Checkpoint(String tag, long round, SequencedMap<String, Tensor> parameters,
      TrainingConfig training, Optional<UpdaterState> updater) {
    /**
     * The round's line of {@code metrics.jsonl} the checkpoint holds ({@link #METRICS_LINE});
     * empty for a checkpoint written before checkpoints held it.
     */
    public Optional<String> metricsLine() {
      return Optional.ofNullable(training.properties().get(METRICS_LINE));
    }
  }

  /** A check of a checkpoint's tag before its tensors are read. */
  @FunctionalInterface
  public interface TagCheck {
    /**
     * Refuses a tag that is not the caller's kind of checkpoint.
     *
     * @param tag the tag's name
     * @param training its training configuration
     * @throws IOException to refuse it, with the message the caller reports
     */
    void check(String tag, TrainingConfig training) throws IOException;
  }

  /**
   * The newest checkpoint in {@code file} (the tag that sorts last, the latest round), after
   * {@code check} accepted its tag: the one reader of checkpoints for the simulator's and the
   * server's resume.
   *
   * <p>A checkpoint whose writing was killed midway is undone first ({@link
   * ModelAppender#recover}), so the file holds the checkpoints written before it.
   *
   * <p>{@code check} is applied to every tag, and every tag's arrays are read and checked, one
   * at a time: a damaged or foreign older tag is refused here, not when a later round rewrites
   * the file.
   *
   * @throws IOException when the file cannot be read or is not a valid model file (a damaged
   *     array included), when {@code check} refuses a tag, or when an optimizer state is not
   *     whole ({@link #updaterState})
   */
  public static Checkpoint readNewest(Path file, TagCheck check) throws IOException {
    ModelAppender.recover(file);
    try (ModelFile m = ModelFile.open(file)) {
      ModelTag tag = m.newest();
      TrainingConfig training = tag.trainingConfig();
      check.check(tag.name(), training);
      // Every older tag too, and each of its arrays against its CRC-32, one at a time: the
      // resumed run's file keeps them, so a damaged or foreign one must be found now, before
      // the resumed run writes anything.
      for (ModelTag t : m.allTags()) {
        if (t != tag) {
          check.check(t.name(), t.trainingConfig());
          for (String p : t.parameterNames()) {
            t.parameter(p);
          }
          updaterState(t);
        }
      }
      return new Checkpoint(tag.name(), training.round(), tag.parameters(), training,
          updaterState(tag));
    }
  }

  /**
   * The server optimizer's and aggregator's state a checkpoint tag holds (as {@link #write}
   * stores it), or empty when the tag has neither (as checkpoints of algorithms without either,
   * and those written before aggregator state was kept, have).
   *
   * @throws IOException when the tag's updater state cannot be read or does not make a whole
   *     optimizer state (no valid {@link #OPTIMIZER_ROUND}, a parameter without its arrays), or
   *     an aggregator state property cannot be read
   */
  public static Optional<UpdaterState> updaterState(ModelTag tag) throws IOException {
    SequencedMap<String, Tensor> aggregator = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : tag.trainingConfig().properties().entrySet()) {
      if (e.getKey().startsWith(AGGREGATOR_PREFIX)) {
        try {
          aggregator.put(e.getKey().substring(AGGREGATOR_PREFIX.length()),
              AggregatorText.parse(e.getValue()));
        } catch (IllegalArgumentException ex) {
          throw new ModelFormatException(tag.name(), "property " + e.getKey() + ": "
              + ex.getMessage());
        }
      }
    }
    List<String> slots = tag.trainingConfig().updaterStateNames();
    if (slots.isEmpty()) {
      return aggregator.isEmpty() ? Optional.empty()
          : Optional.of(new UpdaterState(0, List.of(), List.of(), aggregator));
    }
    Double round = tag.trainingConfig().hyperparameters().get(OPTIMIZER_ROUND);
    if (round == null || !(round >= 0) || round != Math.rint(round)) {
      throw new ModelFormatException(tag.name(), "optimizer state without a valid "
          + OPTIMIZER_ROUND + " (" + round + ")");
    }
    List<List<Tensor>> perTensor = new ArrayList<>(tag.updaterState().values());
    if (perTensor.size() != tag.parameters().size()) {
      throw new ModelFormatException(tag.name(), "optimizer state for " + perTensor.size()
          + " of its " + tag.parameters().size() + " parameters");
    }
    try {
      return Optional.of(new UpdaterState(round.longValue(), slots, perTensor, aggregator));
    } catch (IllegalArgumentException e) {
      throw new ModelFormatException(tag.name(), e.getMessage());
    }
  }
}
