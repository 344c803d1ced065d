package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.ops.Executor;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.OptimizerState;
import io.tributary.graph.optim.Sgd;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code client_update} procedure: SGD for some epochs from the given model, returning
 * {@code <delta, num_examples, loss>}. The gradient graph is built once, when bound.
 */
final class ClientUpdateProcedure implements GraphProcedure {
  @Override
  public LocalFunction prepare(GraphComputation g, Graph graph) throws GraphBindingException {
    String input = Settings.variable(g, graph, "input");
    String labels = Settings.variable(g, graph, "labels");
    String loss = Settings.variable(g, graph, "loss");
    String objective = Settings.variable(g, graph, "objective");
    int epochs = Settings.integer(g, "epochs", 1, ClientUpdateConfig.MAX_EPOCHS);
    int batchSize = Settings.integer(g, "batch_size", 0, Integer.MAX_VALUE);
    double lr = Settings.real(g, "learning_rate", Double.MIN_VALUE);
    StructType model;
    try {
      model = LocalTraining.modelType(graph);
    } catch (IllegalArgumentException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    Settings.requireType(g, LocalTraining.clientUpdateType(model,
        LocalTraining.batchType(graph, input, labels)));
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
    List<String> fetches = new ArrayList<>(List.of(objective, loss));
    for (String p : params) {
      fetches.add(grads.gradientOf(p));
    }
    return new Run(g.name(), grads, model, params, anchored, List.copyOf(fetches), input, labels,
        epochs, batchSize, lr);
  }

  /** The bound function: immutable, so one instance serves every thread. */
  private record Run(String name, GradientGraph grads, StructType model, List<String> params,
      List<String> anchored, List<String> fetches, String input, String labels, int epochs,
      int batchSize, double lr) implements LocalFunction {
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
      Map<String, NdArray> weights = new LinkedHashMap<>();
      Map<String, NdArray> fixed = new HashMap<>();
      for (String p : params) {
        weights.put(p, NdArray.fromTensor(global.get(p)));
      }
      for (String p : anchored) {
        fixed.put(LocalTraining.ANCHOR_PREFIX + p, NdArray.fromTensor(global.get(p)));
      }
      Executor executor = new Executor(grads.graph());
      Sgd sgd = new Sgd(lr);
      OptimizerState state = sgd.init(weights);
      double lossSum = 0;
      long stepsExamples = 0;
      for (int e = 0; e < epochs; e++) {
        for (LocalBatch b : batches) {
          Map<String, NdArray> feeds = new HashMap<>(fixed);
          feeds.putAll(weights);
          feeds.put(input, b.x());
          feeds.put(labels, b.y());
          Map<String, NdArray> out;
          try {
            out = executor.run(feeds, fetches);
          } catch (GraphExecutionException ex) {
            throw new LocalRunException(where + ": epoch " + e + ": " + ex.getMessage(), ex);
          }
          Map<String, NdArray> g = new HashMap<>();
          for (String p : params) {
            g.put(p, out.get(grads.gradientOf(p)));
          }
          sgd.step(weights, g, state);
          lossSum += out.get(fetches.get(1)).get(0) * b.size();
          stepsExamples += b.size();
        }
      }
      long examples = 0;
      for (LocalBatch b : batches) {
        examples += b.size();
      }
      Map<String, Tensor> delta = new LinkedHashMap<>();
      for (String p : params) {
        NdArray w = weights.get(p);
        NdArray w0 = NdArray.fromTensor(global.get(p));
        subtractInPlace(w, w0);
        delta.put(p, w.toTensor());
      }
      float meanLoss = stepsExamples == 0 ? 0f : (float) (lossSum / stepsExamples);
      return StructValue.named("delta", ModelStructs.toValue(model, delta),
          "num_examples", Tensor.ofLongs(Shape.scalar(), examples),
          "loss", Tensor.scalar(meanLoss));
    }

    private static void subtractInPlace(NdArray w, NdArray w0) {
      if (w.dtype() == io.tributary.tensor.DType.FLOAT32) {
        float[] a = w.floats();
        float[] b = w0.floats();
        for (int i = 0; i < a.length; i++) {
          a[i] -= b[i];
        }
        return;
      }
      for (int i = 0; i < w.size(); i++) {
        w.set(i, w.get(i) - w0.get(i));
      }
    }
  }
}
