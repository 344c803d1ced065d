package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.ops.Accumulation;
import io.tributary.graph.ops.CompiledRun;
import io.tributary.graph.ops.ThreadRuns;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.ops.RankOneUpdate;
import io.tributary.graph.optim.Optimizer;
import io.tributary.graph.optim.OptimizerState;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code client_update} procedure: the client optimizer (plain SGD unless the settings name
 * another) for some epochs from the given model, returning
 * {@code <delta, num_examples, loss>}, or with the setting {@code output=model} the trained
 * model itself, {@code <model, num_examples, loss>} (what a Flower client sends back; the delta
 * {@code trained - global} is then the same float subtraction wherever it is taken). The gradient
 * graph is built once, when bound.
 *
 * <p>SGD is fused into the compiled step. Another optimizer ({@link LocalTraining#OPTIMIZER})
 * makes the step return the gradients, which {@link Optimizer#step} applies after each batch with
 * a state made afresh at each call, so no optimizer state passes from one client update to the
 * next.
 */
final class ClientUpdateProcedure implements GraphProcedure {
  private final GemmKernel gemm;

  /** The procedure, its matrix products on {@code gemm}. */
  ClientUpdateProcedure(GemmKernel gemm) {
    this.gemm = java.util.Objects.requireNonNull(gemm, "gemm");
  }

  @Override
  public LocalFunction prepare(GraphComputation g, Graph graph) throws GraphBindingException {
    String input = Settings.variable(g, graph, "input");
    String labels = Settings.variable(g, graph, "labels");
    String loss = Settings.variable(g, graph, "loss");
    String objective = Settings.variable(g, graph, "objective");
    int epochs = Settings.integer(g, "epochs", 1, ClientUpdateConfig.MAX_EPOCHS);
    int batchSize = Settings.integer(g, "batch_size", 0, Integer.MAX_VALUE);
    double lr = Settings.real(g, "learning_rate", Double.MIN_VALUE);
    ClientOptimizer clientOptimizer = optimizer(g);
    StructType model;
    try {
      model = LocalTraining.modelType(graph);
    } catch (IllegalArgumentException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    String output = g.settings().getOrDefault("output", "delta");
    if (!output.equals("delta") && !output.equals("model")) {
      throw new GraphBindingException("graph computation " + g.name() + ": setting 'output' is '"
          + output + "', not 'delta' or 'model'");
    }
    boolean trainedModel = output.equals("model");
    Settings.requireType(g, trainedModel
        ? LocalTraining.clientTrainingType(model, LocalTraining.batchType(graph, input, labels))
        : LocalTraining.clientUpdateType(model, LocalTraining.batchType(graph, input, labels)));
    List<String> params = ModelStructs.parameterNames(model);
    GradientGraph grads;
    try {
      grads = Autodiff.gradients(graph, objective, params);
      grads.graph().validate();
    } catch (RuntimeException e) {
      throw new GraphBindingException("graph computation " + g.name()
          + ": cannot differentiate '" + objective + "': " + e.getMessage(), e);
    }
    List<String> anchored = new ArrayList<>();
    for (String p : params) {
      if (graph.variable(LocalTraining.ANCHOR_PREFIX + p).isPresent()) {
        anchored.add(p);
      }
    }
    // The objective is minimised, never reported: only its gradients are computed, so the plan
    // does not run what only the objective's value needs (the proximal term's forward ops).
    List<String> fetches = new ArrayList<>(List.of(loss));
    // Plain SGD inside the step: each gradient, scaled by -lr, is added onto its parameter's array
    // (straight from the product where the gradient is one). Another optimizer fetches the
    // gradients instead and steps outside.
    List<Accumulation> sgd = new ArrayList<>();
    Optimizer stepper = null;
    if (clientOptimizer.isSgd()) {
      for (String p : params) {
        sgd.add(new Accumulation(grads.gradientOf(p), p, -lr));
      }
    } else {
      for (String p : params) {
        fetches.add(grads.gradientOf(p));
      }
      try {
        stepper = clientOptimizer.create(lr);
      } catch (IllegalArgumentException e) {
        throw new GraphBindingException("graph computation " + g.name() + ": client optimizer "
            + clientOptimizer + ": " + e.getMessage(), e);
      }
    }
    // Anchors, then parameters, then the batch: the SGD step updates the parameter arrays in
    // place, so only the batch changes from one step to the next.
    List<String> feeds = new ArrayList<>();
    for (String p : anchored) {
      feeds.add(LocalTraining.ANCHOR_PREFIX + p);
    }
    feeds.addAll(params);
    feeds.add(input);
    feeds.add(labels);
    CompiledRun step;
    try {
      step = new GraphExecutor(grads.graph(), gemm).compile(feeds, fetches, sgd);
    } catch (GraphExecutionException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    return new Run(g.name(), new ThreadRuns(step), model, params, anchored, epochs, batchSize,
        trainedModel, stepper, new ModelArrays());
  }

  /**
   * Reads the client optimizer: {@value LocalTraining#OPTIMIZER} (absent: sgd) and its
   * hyperparameters {@code optimizer_NAME}, each checked on its own so an error names its setting.
   */
  private static ClientOptimizer optimizer(GraphComputation g) throws GraphBindingException {
    String key = LocalTraining.OPTIMIZER;
    String name = g.settings().getOrDefault(key, "sgd");
    if (!ClientOptimizer.NAMES.contains(name)) {
      throw new GraphBindingException("setting " + key + " of graph computation " + g.name()
          + " is '" + name + "', not one of " + ClientOptimizer.NAMES);
    }
    Map<String, Double> given = new LinkedHashMap<>();
    for (String s : new java.util.TreeSet<>(g.settings().keySet())) {
      if (!s.startsWith(key + "_")) {
        continue;
      }
      String h = s.substring(key.length() + 1);
      String text = g.settings().get(s);
      double v;
      try {
        v = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        throw new GraphBindingException("setting " + s + " of graph computation " + g.name()
            + " is '" + text + "', not a number", e);
      }
      try {
        ClientOptimizer.of(name, Map.of(h, v));
      } catch (IllegalArgumentException e) {
        throw new GraphBindingException("setting " + s + " of graph computation " + g.name()
            + ": " + e.getMessage(), e);
      }
      given.put(h, v);
    }
    return ClientOptimizer.of(name, given);
  }

  /**
   * The bound function: one instance serves every thread; each call takes its thread's run of
   * the compiled step ({@link ThreadRuns}), whose output is the loss, whose feeds are the
   * anchors, the parameters, x and y, and which applies the SGD step to the parameters' arrays.
   * The global model's arrays ({@code start}) are made once for all the calls with that model:
   * each call trains one of its thread's working copies of them, and its delta is that copy
   * minus them, lent the copy until the delta is read or dropped ({@link ModelArrays}).
   */
  private record Run(String name, ThreadRuns steps, StructType model, List<String> params,
      List<String> anchored, int epochs, int batchSize, boolean trainedModel, Optimizer stepper,
      ModelArrays start) implements LocalFunction {
    @Override
    public Object apply(Object argument) {
      String where = "graph:" + name;
      if (!(argument instanceof StructValue arg) || arg.size() != 2) {
        throw new LocalRunException(where + ": the argument should be <model=...,data=...> but is "
            + ModelStructs.describe(argument));
      }
      Map<String, Tensor> global = ModelStructs.fromValue(model, arg.get(0), where + ": model");
      List<LocalBatch> batches = LocalBatch.readAll(arg.get(1), where + ": data");
      if (batchSize > 0) {
        batches = LocalBatch.regroup(batches, batchSize, where + ": data");
      }
      List<Tensor> globalTensors = new ArrayList<>(params.size());
      for (String p : params) {
        globalTensors.add(global.get(p));
      }
      NdArray[] initial = start.of(globalTensors);
      ModelArrays.Copy copy = start.workingCopy(initial);
      NdArray[] trained = copy.arrays;
      Map<String, NdArray> weights = new LinkedHashMap<>();
      for (int i = 0; i < params.size(); i++) {
        weights.put(params.get(i), trained[i]);
      }
      NdArray[] feeds = new NdArray[anchored.size() + params.size() + 2];
      int at = 0;
      for (String p : anchored) {
        // Read, never written: the step updates only the parameters' arrays.
        feeds[at++] = initial[params.indexOf(p)];
      }
      // One SGD step over one example, returning the delta: the weight updates that are outer
      // products are left unapplied and read where the delta is summed (no trained array is
      // written, no working copy restored; Tensor.rankOneStep), the same bits as applied.
      List<RankOneUpdate> deferred = stepper == null && !trainedModel && epochs == 1
          && batches.size() == 1 ? new ArrayList<>(params.size()) : null;
      // The arrays the step reads, by parameter: in its one run the copy holds the start's
      // elements until the accumulations, so a start known finite makes it finite too, and a
      // product may skip an example's zero features (NdArray#assumingFinite).
      NdArray[] fed = trained.clone();
      for (int i = 0; deferred != null && i < fed.length; i++) {
        if (start.withinHalfRange(initial, i)) {
          fed[i] = copy.finiteView(i);
        }
      }
      for (NdArray w : fed) {
        feeds[at++] = w;
      }
      int batchAt = at;
      // The thread's run of the step, kept from its last client: planned once, its arrays reused.
      List<LocalBatch> data = batches;
      Stepped stepped = steps.with(step -> stepper == null
          ? train(step, feeds, batchAt, data, epochs, where, deferred)
          : trainWith(stepper, weights, step, feeds, batchAt, data, epochs, where));
      long examples = 0;
      for (LocalBatch b : batches) {
        examples += b.size();
      }
      Map<String, Tensor> delta = new LinkedHashMap<>();
      for (int i = 0; i < params.size(); i++) {
        RankOneUpdate update = deferredFor(deferred, fed[i]);
        // The delta is lent the working copy: made from it only if something reads it.
        delta.put(params.get(i),
            trainedModel ? trained[i].toTensor()
                : update != null
                    ? copy.rankOneStep(i, initial[i], start.withinHalfRange(initial, i), update)
                    : copy.difference(i, initial[i], start.withinHalfRange(initial, i)));
      }
      float meanLoss = stepped.examples() == 0 ? 0f
          : (float) (stepped.lossSum() / stepped.examples());
      return StructValue.named(trainedModel ? "model" : "delta", ModelStructs.toValue(model, delta),
          "num_examples", Tensor.ofLongs(Shape.scalar(), examples),
          "loss", Tensor.scalar(meanLoss));
    }

    /**
     * Runs the SGD steps: {@code epochs} passes over {@code batches}, each fed at {@code batchAt}
     * and {@code batchAt + 1}. Kept apart from {@link #apply}, which runs once per client: the JIT
     * then compiles this loop on its own instead of the whole per-client set-up with it.
     *
     * @return the example-weighted loss sum and the examples stepped over
     */
    private static Stepped train(CompiledRun step, NdArray[] feeds, int batchAt,
        List<LocalBatch> batches, int epochs, String where, List<RankOneUpdate> deferred) {
      double lossSum = 0;
      long stepsExamples = 0;
      for (int e = 0; e < epochs; e++) {
        for (LocalBatch b : batches) {
          feeds[batchAt] = b.x();
          feeds[batchAt + 1] = b.y();
          NdArray[] out = run(step, feeds, e, where, deferred);
          lossSum += out[0].get(0) * b.size();
          stepsExamples += b.size();
        }
      }
      return new Stepped(lossSum, stepsExamples);
    }

    /**
     * As {@link #train}, for an optimizer other than SGD: each step returns the gradients after
     * the loss, and {@code optimizer} applies them to {@code weights} (the
     * arrays fed as the parameters), from a fresh state.
     */
    private static Stepped trainWith(Optimizer optimizer, Map<String, NdArray> weights,
        CompiledRun step, NdArray[] feeds, int batchAt, List<LocalBatch> batches, int epochs,
        String where) {
      OptimizerState state = optimizer.init(weights);
      Map<String, NdArray> gradients = new LinkedHashMap<>();
      double lossSum = 0;
      long stepsExamples = 0;
      for (int e = 0; e < epochs; e++) {
        for (LocalBatch b : batches) {
          feeds[batchAt] = b.x();
          feeds[batchAt + 1] = b.y();
          NdArray[] out = run(step, feeds, e, where, null);
          int k = 1;
          for (String p : weights.keySet()) {
            gradients.put(p, out[k++]);
          }
          optimizer.step(weights, gradients, state);
          lossSum += out[0].get(0) * b.size();
          stepsExamples += b.size();
        }
      }
      return new Stepped(lossSum, stepsExamples);
    }

    /** The update of {@code deferred} (null: none) left unapplied to {@code target}, or null. */
    private static RankOneUpdate deferredFor(List<RankOneUpdate> deferred, NdArray target) {
      if (deferred != null) {
        for (RankOneUpdate u : deferred) {
          if (u.target() == target) {
            return u;
          }
        }
      }
      return null;
    }

    /**
     * One step of epoch {@code epoch}, its rank-one updates left to {@code deferred} unless that is
     * null; a graph failure becomes the client's, naming the epoch.
     */
    private static NdArray[] run(CompiledRun step, NdArray[] feeds, int epoch, String where,
        List<RankOneUpdate> deferred) {
      try {
        return deferred == null ? step.run(feeds) : step.runDeferringRankOne(deferred, feeds);
      } catch (GraphExecutionException ex) {
        throw new LocalRunException(where + ": epoch " + epoch + ": " + ex.getMessage(), ex);
      }
    }

    /** What {@link #train} did: the example-weighted loss sum of its steps, and their examples. */
    private record Stepped(double lossSum, long examples) {}
  }
}
