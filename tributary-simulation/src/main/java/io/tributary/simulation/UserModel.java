package io.tributary.simulation;

import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.ModelWriter;
import io.tributary.format.TagContents;
import io.tributary.format.TrainingConfig;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphFb;
import io.tributary.graph.GraphFormatException;
import io.tributary.graph.Op;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.graph.models.Model;
import io.tributary.learning.SettingException;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A model the user brings: a classifier graph ({@link Model}) and, optionally, the parameters
 * training starts from (otherwise the seeded initial parameters every model gets). From a file
 * it is the newest tag of an ADR-0001 {@code model.zip} ({@code graph.fb} and its parameters;
 * {@link #read}), which is also what a run's checkpoints are, so a trained model reads back as
 * the next run's model.
 *
 * <p>The graph's roles (input, labels, logits, loss, accuracy) are the tag's training
 * configuration properties {@link #INPUT}, {@link #LABELS}, {@link #LOGITS}, {@link #LOSS} and
 * {@link #ACCURACY}; a file without them uses the built-in models' names ({@code x}, {@code
 * labels}, {@code loss}, {@code accuracy}, and the logits the {@code accuracy} op reads).
 *
 * @param model the graph and its roles
 * @param parameters the parameters training starts from, each a trainable of the graph with its
 *     dtype and shape, all of them; empty for the seeded initial parameters
 */
public record UserModel(Model model, SequencedMap<String, Tensor> parameters) {
  /** The property naming the input placeholder. */
  public static final String INPUT = "model.input";
  /** The property naming the labels placeholder. */
  public static final String LABELS = "model.labels";
  /** The property naming the logits. */
  public static final String LOGITS = "model.logits";
  /** The property naming the scalar loss. */
  public static final String LOSS = "model.loss";
  /** The property naming the scalar accuracy. */
  public static final String ACCURACY = "model.accuracy";

  /**
   * Checks that the parameters are the graph's trainables.
   *
   * @throws IllegalArgumentException naming the parameter that is missing, extra or of another
   *     dtype or shape
   */
  public UserModel {
    Objects.requireNonNull(model, "model");
    parameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(parameters));
    if (!parameters.isEmpty()) {
      for (Variable v : model.trainables()) {
        Tensor t = parameters.get(v.name());
        if (t == null) {
          throw new IllegalArgumentException("model " + model.name() + ": no parameter '"
              + v.name() + "' for the graph's trainable");
        }
        if (t.dtype() != v.dtype() || !Arrays.equals(t.shape().dims(), v.shape().dims())) {
          throw new IllegalArgumentException("model " + model.name() + ": parameter '"
              + v.name() + "' is " + t.dtype() + Arrays.toString(t.shape().dims())
              + ", the graph's trainable " + v.dtype() + Arrays.toString(v.shape().dims()));
        }
      }
      for (String name : parameters.keySet()) {
        if (model.graph().variable(name).map(Variable::kind).orElse(null)
            != VariableKind.TRAINABLE) {
          throw new IllegalArgumentException("model " + model.name() + ": parameter '" + name
              + "' is not a trainable of the graph");
        }
      }
    }
  }

  /** {@code model} starting from the seeded initial parameters. */
  public static UserModel of(Model model) {
    return new UserModel(model, new LinkedHashMap<>());
  }

  /** The parameters training starts from, if the model brings them. */
  public Optional<SequencedMap<String, Tensor>> initial() {
    return parameters.isEmpty() ? Optional.empty() : Optional.of(parameters);
  }

  /**
   * Checks that the model takes the data's examples and classes.
   *
   * @throws SettingException naming the model and what does not fit
   */
  public void checkFits(String model, String data, long[] exampleShape, int numClasses) {
    long[] input = this.model.graph().requireVariable(this.model.input()).shape().dims();
    long[] perExample = Arrays.copyOfRange(input, Math.min(1, input.length), input.length);
    boolean fits = perExample.length == exampleShape.length;
    for (int i = 0; fits && i < perExample.length; i++) {
      fits = perExample[i] < 0 || perExample[i] == exampleShape[i];
    }
    if (!fits) {
      throw new SettingException("model", "{model} " + model + " takes examples of shape "
          + Arrays.toString(perExample) + ", but " + data + " has "
          + Arrays.toString(exampleShape));
    }
    long[] logits = this.model.graph().requireVariable(this.model.logits()).shape().dims();
    long classes = logits.length == 0 ? -1 : logits[logits.length - 1];
    if (classes > 0 && numClasses > classes) {
      throw new SettingException("model", "{model} " + model + " scores " + classes
          + " classes, but " + data + " has labels up to " + (numClasses - 1));
    }
  }

  /**
   * The model {@code settings} train on {@code data}: the user's (a model file, read here, or one
   * built in code), checked to fit the data, or the built-in one built for them.
   *
   * @throws IOException when the model file cannot be read (naming it)
   * @throws SettingException when the user's model does not fit the data
   * @throws IllegalArgumentException when a built-in model cannot take the data
   */
  public static UserModel forRun(SimulationSettings settings, SimulationData data)
      throws IOException {
    String file = settings.get(SettingsSchema.MODEL_FILE);
    UserModel chosen = !file.isEmpty() ? read(Path.of(file))
        : settings.get(SettingsSchema.MODEL_CODE);
    if (chosen == null) {
      return of(settings.model().build(data.name(), data.exampleShape(), data.numClasses()));
    }
    chosen.checkFits(settings.modelName(), settings.dataset().toString(), data.exampleShape(),
        data.numClasses());
    return chosen;
  }

  /**
   * The model in the newest tag of {@code file}: its graph, roles and parameters.
   *
   * @throws IOException when the file is not a model file, its newest tag holds no graph, the
   *     graph is malformed, or its parameters do not fit it (each naming the file)
   */
  public static UserModel read(Path file) throws IOException {
    try (ModelFile f = ModelFile.open(file)) {
      ModelTag tag = f.newest();
      Optional<ByteBuffer> bytes = tag.graph();
      if (bytes.isEmpty()) {
        throw new IOException(file + ": tag " + tag.name() + " holds no graph (graph.fb), "
            + "only parameters; a model file to train needs both");
      }
      Graph graph;
      try {
        graph = GraphFb.read(bytes.get());
      } catch (GraphFormatException e) {
        throw new IOException(file + ": tag " + tag.name() + "'s graph: " + e.getMessage(), e);
      }
      Map<String, String> p = tag.trainingConfig().properties();
      String accuracy = p.getOrDefault(ACCURACY, "accuracy");
      String logits = p.containsKey(LOGITS) ? p.get(LOGITS) : logitsOf(graph, accuracy);
      String name = file.getFileName().toString().replaceFirst("(?i)\\.zip$", "");
      try {
        Model model = new Model(name, graph, p.getOrDefault(INPUT, "x"),
            p.getOrDefault(LABELS, "labels"), logits, p.getOrDefault(LOSS, "loss"), accuracy);
        return new UserModel(model, tag.parameters());
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new IOException(file + ": tag " + tag.name() + ": " + e.getMessage(), e);
      }
    }
  }

  /** The first input of the op that computes {@code accuracy}, or "logits" when none does. */
  private static String logitsOf(Graph graph, String accuracy) {
    for (Op op : graph.ops()) {
      if (op.outputs().contains(accuracy) && !op.inputs().isEmpty()) {
        return op.inputs().getFirst();
      }
    }
    return "logits";
  }

  /**
   * Writes {@code model} with {@code parameters} as tag {@code tag} of a new {@code file}: the
   * graph, the parameters, and the roles as properties, what {@link #read} reads.
   *
   * @throws IOException when the file cannot be written
   */
  public static void write(Path file, String tag, Model model, Map<String, Tensor> parameters)
      throws IOException {
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    TagContents.Builder b = TagContents.builder();
    parameters.forEach(b::parameter);
    b.trainingConfig(TrainingConfig.none().withProperties(roles(model)));
    b.graph(ByteBuffer.wrap(GraphFb.toBytes(model.graph())));
    tags.put(tag, b.build());
    ModelWriter.save(file, tags);
  }

  /** The properties that name {@code model}'s roles. */
  public static SequencedMap<String, String> roles(Model model) {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    for (var e : List.of(Map.entry(INPUT, model.input()), Map.entry(LABELS, model.labels()),
        Map.entry(LOGITS, model.logits()), Map.entry(LOSS, model.loss()),
        Map.entry(ACCURACY, model.accuracy()))) {
      m.put(e.getKey(), e.getValue());
    }
    return m;
  }
}
