package io.tributary.graph.training;

import io.tributary.graph.Graph;
import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.autodiff.GradientGraph;
import io.tributary.graph.models.Model;
import io.tributary.graph.ops.Accumulation;
import io.tributary.graph.ops.CompiledRun;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Optimizer;
import io.tributary.graph.optim.Sgd;
import io.tributary.graph.optim.OptimizerState;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * Trains a graph's parameters on batches: builds the gradient graph once, then for each batch runs
 * loss and gradients and lets the optimizer step. Parameters and optimizer state are held here as
 * mutable arrays and handed out as tensors.
 *
 * <p>With plain SGD ({@link Sgd}), the step
 * adds {@code -lr * g} onto each parameter inside the compiled run ({@link Accumulation}): a
 * weight gradient that is a matrix product is then computed straight onto its weights, and no
 * gradient is stored or swept again. Other optimizers get the gradients and step as usual.
 *
 * <p>Not thread-safe: one trainer per client or thread.
 */
public final class Trainer {
  private final GradientGraph grads;
  private final GraphExecutor executor;
  private final String input;
  private final String labels;
  private final String accuracy;
  private final List<String> trainables;
  private final List<String> fetches;
  /** The plain-SGD updates folded into the step, or empty when the optimizer steps itself. */
  private final List<Accumulation> updates;
  private final Optimizer optimizer;
  private final Map<String, NdArray> params = new LinkedHashMap<>();
  private final Map<String, NdArray> extraFeeds = new LinkedHashMap<>();
  private OptimizerState state;
  /** The compiled training step, rebuilt when the set of extra feeds changes. */
  private CompiledRun step;
  private final Map<String, NdArray> stepGrads = new HashMap<>();

  /**
   * A trainer for any graph.
   *
   * @param graph the forward graph
   * @param loss the scalar loss to minimise
   * @param input the placeholder fed with a batch's examples
   * @param labels the placeholder fed with a batch's labels
   * @param accuracy the accuracy variable for {@link #evaluate}, or null
   * @param trainables the parameters to train
   * @param initial their initial values
   */
  public Trainer(Graph graph, String loss, String input, String labels, String accuracy,
      List<String> trainables, Optimizer optimizer, Map<String, Tensor> initial) {
    this(graph, loss, input, labels, accuracy, trainables, optimizer, initial, GemmKernel.DEFAULT);
  }

  /**
   * As {@link #Trainer(Graph, String, String, String, String, List, Optimizer, Map)}, with the
   * matrix products on {@code gemm}.
   *
   * @throws IllegalStateException when {@code gemm} cannot run in this JVM
   */
  public Trainer(Graph graph, String loss, String input, String labels, String accuracy,
      List<String> trainables, Optimizer optimizer, Map<String, Tensor> initial,
      GemmKernel gemm) {
    this.grads = Autodiff.gradients(graph, loss, trainables);
    this.executor = new GraphExecutor(grads.graph(), gemm);
    this.input = input;
    this.labels = labels;
    this.accuracy = accuracy;
    this.trainables = List.copyOf(trainables);
    this.optimizer = optimizer;
    List<String> f = new ArrayList<>();
    f.add(loss);
    List<Accumulation> u = new ArrayList<>();
    // Plain SGD is fused into the gradient computation: each gradient, scaled by -lr, is added
    // onto its parameter where it is computed.
    OptionalDouble lr = optimizer instanceof Sgd sgd ? OptionalDouble.of(sgd.learningRate())
        : OptionalDouble.empty();
    for (String t : trainables) {
      if (lr.isPresent()) {
        u.add(new Accumulation(grads.gradientOf(t), t, -lr.getAsDouble()));
      } else {
        f.add(grads.gradientOf(t));
      }
    }
    this.fetches = List.copyOf(f);
    this.updates = List.copyOf(u);
    setParameters(initial);
    this.state = optimizer.init(params);
  }

  /** A trainer for a built-in model. */
  public static Trainer forModel(Model model, Optimizer optimizer, Map<String, Tensor> initial) {
    return new Trainer(model.graph(), model.loss(), model.input(), model.labels(), model.accuracy(),
        model.trainableNames(), optimizer, initial);
  }

  /** The gradient graph this trainer runs. */
  public GradientGraph gradientGraph() {
    return grads;
  }

  /** Replaces every parameter (copied). */
  public void setParameters(Map<String, Tensor> values) {
    for (String t : trainables) {
      Tensor v = values.get(t);
      if (v == null) {
        throw new IllegalArgumentException("no value for parameter '" + t + "'");
      }
      io.tributary.graph.Variable var = grads.graph().requireVariable(t);
      if (v.dtype() != var.dtype() || !var.shape().accepts(v.shape())) {
        throw new IllegalArgumentException("parameter '" + t + "' is " + var.dtype() + var.shape()
            + ", got " + v.dtype() + v.shape());
      }
      params.put(t, NdArray.fromTensor(v));
    }
  }

  /** The current parameters, as new tensors. */
  public Map<String, Tensor> parameters() {
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray> e : params.entrySet()) {
      out.put(e.getKey(), e.getValue().toTensor());
    }
    return out;
  }

  /** The live optimizer state. */
  public OptimizerState optimizerState() {
    return state;
  }

  /** Replaces the optimizer state (restored from a model file, say). */
  public void setOptimizerState(OptimizerState s) {
    this.state = s;
  }

  /** Feeds a placeholder other than input and labels on every step (a proximal anchor, say). */
  public void setFeed(String placeholder, Tensor value) {
    grads.graph().requireVariable(placeholder);
    if (extraFeeds.put(placeholder, NdArray.fromTensor(value)) == null) {
      step = null;
    }
  }

  /** One optimizer step on a batch; returns the batch loss before the step. */
  public double trainBatch(Batch batch) {
    return trainBatch(NdArray.fromTensor(batch.x()), NdArray.fromTensor(batch.y()));
  }

  /** One optimizer step on a batch given as arrays; returns the batch loss before the step. */
  public double trainBatch(NdArray x, NdArray y) {
    if (step == null) {
      // Parameters and the batch come first: a feed named twice takes its first value, and they
      // win over an extra feed of the same name, as they always have.
      List<String> feeds = new ArrayList<>(trainables);
      feeds.add(input);
      feeds.add(labels);
      feeds.addAll(extraFeeds.keySet());
      step = executor.compile(feeds, fetches, updates);
    }
    NdArray[] values = new NdArray[trainables.size() + 2 + extraFeeds.size()];
    int at = 0;
    for (String t : trainables) {
      values[at++] = params.get(t);
    }
    values[at++] = x;
    values[at++] = y;
    for (NdArray a : extraFeeds.values()) {
      values[at++] = a;
    }
    if (!updates.isEmpty()) {
      // Fail before the run changes any parameter, as the optimizer's own step would.
      optimizer.requireState(state);
    }
    NdArray[] out = step.run(values);
    if (updates.isEmpty()) {
      for (int i = 0; i < trainables.size(); i++) {
        stepGrads.put(trainables.get(i), out[1 + i]);
      }
      optimizer.step(params, stepGrads, state);
    } else {
      ((Sgd) optimizer).countAppliedStep(state);
    }
    return out[0].get(0);
  }

  /** One pass over the batches. */
  public EpochResult trainEpoch(Iterator<Batch> batches) {
    double weighted = 0;
    long examples = 0;
    long steps = 0;
    while (batches.hasNext()) {
      Batch b = batches.next();
      double loss = trainBatch(b);
      weighted += loss * b.size();
      examples += b.size();
      steps++;
    }
    return new EpochResult(examples == 0 ? Double.NaN : weighted / examples, examples, steps);
  }

  /** {@code epochs} passes, each over a fresh iterator from {@code data}. */
  public List<EpochResult> train(Supplier<Iterator<Batch>> data, int epochs) {
    if (epochs < 0) {
      throw new IllegalArgumentException("epochs must be >= 0, got " + epochs);
    }
    List<EpochResult> out = new ArrayList<>();
    for (int e = 0; e < epochs; e++) {
      out.add(trainEpoch(data.get()));
    }
    return out;
  }

  /** Loss and accuracy with the current parameters; needs an accuracy variable. */
  public Evaluation evaluate(Iterator<Batch> batches) {
    if (accuracy == null) {
      throw new IllegalStateException("this trainer was built without an accuracy variable");
    }
    double loss = 0;
    double acc = 0;
    long n = 0;
    List<String> outs = List.of(grads.loss(), accuracy);
    while (batches.hasNext()) {
      Batch b = batches.next();
      Map<String, NdArray> feeds = new HashMap<>(extraFeeds);
      feeds.putAll(params);
      feeds.put(input, NdArray.fromTensor(b.x()));
      feeds.put(labels, NdArray.fromTensor(b.y()));
      Map<String, NdArray> r = executor.run(feeds, outs);
      loss += r.get(grads.loss()).get(0) * b.size();
      acc += r.get(accuracy).get(0) * b.size();
      n += b.size();
    }
    return n == 0 ? new Evaluation(Double.NaN, Double.NaN, 0) : new Evaluation(loss / n, acc / n, n);
  }
}
