package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.SequenceType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphBuilder;
import io.tributary.graph.GraphFb;
import io.tributary.graph.OpArgs;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.graph.models.Model;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the graph-backed local computations that federated learning calls: a client update, an
 * evaluation and the initial model, each a {@link GraphComputation} typed in the Federated Core.
 *
 * <p>With M the model's struct type ({@link ModelStructs}) and B its batch type
 * {@code <x=float32[?,F],y=int64[?]>}:
 *
 * <ul>
 *   <li>client update {@code (<model=M,data=B*> -> <delta=M,num_examples=int64,loss=float32>)};
 *   <li>evaluation {@code (<model=M,data=B*> -> <loss=float32,accuracy=float32,num_examples=int64>)};
 *   <li>initial model {@code ( -> M)}.
 * </ul>
 *
 * <p>{@link GraphBinder} makes them runnable.
 */
public final class LocalTraining {
  /** Prefix of the placeholders that receive the round's global model for the proximal term. */
  public static final String ANCHOR_PREFIX = "proximal/";

  /** The variable holding the FedProx objective: loss + (mu/2) * ||w - w_global||^2. */
  public static final String OBJECTIVE = "proximal/objective";

  /**
   * The client update's setting naming its {@link ClientOptimizer}; each hyperparameter {@code h}
   * is the setting {@code optimizer_h}. Absent for plain SGD.
   */
  public static final String OPTIMIZER = "optimizer";

  private LocalTraining() {}

  /** The struct type of the model's parameters. */
  public static StructType modelType(Model model) {
    return ModelStructs.structType(model.trainables());
  }

  /** The batch type {@code <x=...,y=...>} of the model's input and label placeholders. */
  public static StructType batchType(Model model) {
    return batchType(model.graph(), model.input(), model.labels());
  }

  /** The client update's type for this model. */
  public static FunctionType clientUpdateType(Model model) {
    return clientUpdateType(modelType(model), batchType(model));
  }

  /** The evaluation's type for this model. */
  public static FunctionType evaluationType(Model model) {
    return evaluationType(modelType(model), batchType(model));
  }

  /**
   * The client update: {@code config.epochs()} passes of the client optimizer over the client's
   * data from the given model, one step per batch, returning the change in the model, the number
   * of examples in one pass and the example-weighted mean training loss over every step.
   *
   * <p>Plain SGD is fused into the compiled step (each gradient added onto its parameter). Any
   * other optimizer gets the gradients from the step and applies {@link
   * io.tributary.graph.optim.Optimizer#step} after each batch, with a state that starts afresh at
   * each call: client optimizer state does not outlive one client update (one round), as in
   * TFF's {@code build_weighted_fed_avg}. The optimizer is written into the computation's
   * settings ({@value #OPTIMIZER} and {@code optimizer_<hyperparameter>}) only when it is not SGD.
   *
   * <p>With {@code mu > 0} the graph is extended with the FedProx proximal term: the objective
   * minimised is {@code loss + (mu/2) * sum_p ||p - p_global||^2}, so autodiff adds
   * {@code mu * (p - p_global)} to each gradient. The reported loss stays the model's own loss.
   */
  public static GraphComputation clientUpdate(String name, Model model, ClientUpdateConfig config) {
    Graph graph = config.mu() > 0 ? withProximalTerm(model, config.mu()) : model.graph();
    Map<String, String> settings = roles(model);
    settings.put("objective", config.mu() > 0 ? OBJECTIVE : model.loss());
    settings.put("epochs", Integer.toString(config.epochs()));
    settings.put("batch_size", Integer.toString(config.batchSize()));
    settings.put("learning_rate", Double.toString(config.learningRate()));
    settings.put("mu", Double.toString(config.mu()));
    // Plain SGD writes nothing, so its computations stay as they were before client optimizers.
    if (!config.optimizer().isSgd()) {
      settings.put(OPTIMIZER, config.optimizer().name());
      config.optimizer().hyperparameters().forEach(
          (k, v) -> settings.put(OPTIMIZER + "_" + k, Double.toString(v)));
    }
    return GraphComputation.of(name, clientUpdateType(model), GraphBinder.CLIENT_UPDATE,
        GraphFb.toBytes(graph), settings);
  }

  /**
   * Like {@link #clientUpdate}, returning the trained model instead of its change: {@code
   * (<model=M,data=B*> -> <model=M,num_examples=int64,loss=float32>)}. A Flower client sends this
   * model back as it is, so the server's {@code trained - global} is the very subtraction
   * {@link #clientUpdate} makes, and the two paths agree bit for bit.
   */
  public static GraphComputation clientTraining(String name, Model model,
      ClientUpdateConfig config) {
    GraphComputation u = clientUpdate(name, model, config);
    Map<String, String> settings = new java.util.LinkedHashMap<>(u.settings());
    settings.put("output", "model");
    return GraphComputation.of(name, clientTrainingType(modelType(model), batchType(model)),
        GraphBinder.CLIENT_UPDATE, u.graph(), settings);
  }

  /**
   * The evaluation: the example-weighted mean loss and accuracy of the given model over the
   * data, and the number of examples (zeros for no data).
   */
  public static GraphComputation evaluation(String name, Model model) {
    Map<String, String> settings = roles(model);
    settings.put("accuracy", model.accuracy());
    return GraphComputation.of(name, evaluationType(model), GraphBinder.EVALUATE,
        GraphFb.toBytes(model.graph()), settings);
  }

  /**
   * The initial model {@code ( -> M)}: {@link Model#initialParameters(long)} for this seed,
   * stored as the constants of a graph.
   */
  public static GraphComputation initialModel(String name, Model model, long seed) {
    GraphBuilder b = new GraphBuilder();
    for (Map.Entry<String, Tensor> e : model.initialParameters(seed).entrySet()) {
      b.constant(e.getKey(), e.getValue());
    }
    return GraphComputation.of(name, FunctionType.noParameter(modelType(model)),
        GraphBinder.INITIAL_MODEL, GraphFb.toBytes(b.build()), Map.of());
  }

  /**
   * The model's graph with the FedProx objective {@value #OBJECTIVE} = loss + (mu/2) *
   * sum_p sum((p - a_p)^2), where each anchor {@code a_p} is a placeholder named
   * {@value #ANCHOR_PREFIX} + p, fed with the round's global model.
   */
  public static Graph withProximalTerm(Model model, double mu) {
    if (!(mu > 0) || !Double.isFinite(mu)) {
      throw new IllegalArgumentException("mu must be positive and finite, got " + mu);
    }
    GraphBuilder b = GraphBuilder.from(model.graph());
    String total = null;
    for (Variable p : model.trainables()) {
      String anchor = b.placeholder(ANCHOR_PREFIX + p.name(), p.dtype(), p.shape().dims());
      String diff = b.opNamed(ANCHOR_PREFIX + p.name() + "/diff", "sub", OpArgs.none(),
          p.name(), anchor);
      String sq = b.opNamed(ANCHOR_PREFIX + p.name() + "/square", "square", OpArgs.none(), diff);
      String sum = b.opNamed(ANCHOR_PREFIX + p.name() + "/sum", "reduce_sum", OpArgs.none(), sq);
      total = total == null ? sum
          : b.opNamed(ANCHOR_PREFIX + p.name() + "/total", "add", OpArgs.none(), total, sum);
    }
    if (total == null) {
      throw new IllegalArgumentException("model " + model.name() + " has no parameters");
    }
    String term = b.opNamed(ANCHOR_PREFIX + "term", "scale",
        OpArgs.builder().putFloat("factor", mu / 2).build(), total);
    b.opNamed(OBJECTIVE, "add", OpArgs.none(), model.loss(), term);
    return b.build();
  }

  static StructType batchType(Graph graph, String input, String labels) {
    Variable x = graph.requireVariable(input);
    Variable y = graph.requireVariable(labels);
    return StructType.named("x", TensorType.of(x.dtype(), x.shape().dims()),
        "y", TensorType.of(y.dtype(), y.shape().dims()));
  }

  static FunctionType clientUpdateType(StructType model, StructType batch) {
    return FunctionType.of(StructType.named("model", model, "data", new SequenceType(batch)),
        StructType.named("delta", model, "num_examples", TensorType.of(DType.INT64),
            "loss", TensorType.of(DType.FLOAT32)));
  }

  static FunctionType clientTrainingType(StructType model, StructType batch) {
    return FunctionType.of(StructType.named("model", model, "data", new SequenceType(batch)),
        StructType.named("model", model, "num_examples", TensorType.of(DType.INT64),
            "loss", TensorType.of(DType.FLOAT32)));
  }

  static FunctionType evaluationType(StructType model, StructType batch) {
    return FunctionType.of(StructType.named("model", model, "data", new SequenceType(batch)),
        StructType.named("loss", TensorType.of(DType.FLOAT32),
            "accuracy", TensorType.of(DType.FLOAT32), "num_examples", TensorType.of(DType.INT64)));
  }

  static StructType modelType(Graph graph) {
    List<Variable> trainables = graph.variablesOfKind(VariableKind.TRAINABLE);
    return ModelStructs.structType(trainables);
  }

  private static Map<String, String> roles(Model model) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("input", model.input());
    settings.put("labels", model.labels());
    settings.put("loss", model.loss());
    return settings;
  }
}
