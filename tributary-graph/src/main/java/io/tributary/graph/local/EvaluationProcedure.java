package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.ops.CompiledRun;
import io.tributary.graph.ops.ThreadRuns;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.GraphExecutor;
import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code evaluate} procedure: example-weighted mean loss and accuracy of the given model over
 * the data, and the number of examples. No data gives zeros, so a weighted mean over clients
 * stays finite.
 */
final class EvaluationProcedure implements GraphProcedure {
  /**
   * The most bytes of batch arrays a bound evaluation keeps between calls: a simulation's test
   * set, evaluated every round, up to this size is converted once.
   */
  static final long BATCH_CACHE_BYTES = 64L << 20;

  private final GemmKernel gemm;

  /** The procedure, its matrix products on {@code gemm}. */
  EvaluationProcedure(GemmKernel gemm) {
    this.gemm = java.util.Objects.requireNonNull(gemm, "gemm");
  }

  @Override
  public LocalFunction prepare(GraphComputation g, Graph graph) throws GraphBindingException {
    String input = Settings.variable(g, graph, "input");
    String labels = Settings.variable(g, graph, "labels");
    String loss = Settings.variable(g, graph, "loss");
    String accuracy = Settings.variable(g, graph, "accuracy");
    StructType model;
    try {
      model = LocalTraining.modelType(graph);
    } catch (IllegalArgumentException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    Settings.requireType(g, LocalTraining.evaluationType(model,
        LocalTraining.batchType(graph, input, labels)));
    List<String> params = ModelStructs.parameterNames(model);
    List<String> feeds = new ArrayList<>(params);
    feeds.add(input);
    feeds.add(labels);
    CompiledRun template;
    try {
      template = new GraphExecutor(graph, gemm).compile(feeds, List.of(loss, accuracy));
    } catch (GraphExecutionException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    return new Run(g.name(), new ThreadRuns(template), model, params, new ModelArrays(),
        new BatchCache(BATCH_CACHE_BYTES));
  }

  /**
   * The bound function: one instance serves every thread; each call takes its thread's run of
   * the compiled template ({@link ThreadRuns}; feeds: the parameters, x, y; outputs: loss,
   * accuracy). The
   * parameters' arrays are made once for all the calls with the same model and only read, and
   * the batches' arrays once for every call on the same batch values, within {@code batches}' cap.
   */
  private record Run(String name, ThreadRuns runs, StructType model, List<String> params,
      ModelArrays arrays, BatchCache batches) implements LocalFunction {
    @Override
    public Object apply(Object argument) {
      String where = "graph:" + name;
      if (!(argument instanceof StructValue arg) || arg.size() != 2) {
        throw new LocalRunException(where + ": the argument should be <model=...,data=...> but is "
            + ModelStructs.describe(argument));
      }
      Map<String, Tensor> weights = ModelStructs.fromValue(model, arg.get(0), where + ": model");
      Object data = arg.get(1);
      if (!(data instanceof Iterable<?> it)) {
        throw new LocalRunException(where + ": the data should be an Iterable of batch structs"
            + " but is " + ModelStructs.describe(data));
      }
      List<Tensor> tensors = new ArrayList<>(params.size());
      for (String p : params) {
        tensors.add(weights.get(p));
      }
      NdArray[] feeds = new NdArray[params.size() + 2];
      System.arraycopy(arrays.of(tensors), 0, feeds, 0, params.size());
      // The thread's run, kept from its last call: planned once, its arrays reused.
      Scored scored = runs.with(run -> score(run, feeds, it, where + ": data"));
      long n = scored.examples();
      float loss = n == 0 ? 0f : (float) (scored.lossSum() / n);
      float acc = n == 0 ? 0f : (float) (scored.correct() / n);
      return StructValue.named("loss", Tensor.scalar(loss), "accuracy", Tensor.scalar(acc),
          "num_examples", Tensor.ofLongs(Shape.scalar(), n));
    }

    /**
     * Runs the model on every batch of {@code data}, fed after the parameters in {@code feeds}.
     * Kept apart from {@link #apply}, which runs once per client: the JIT then compiles this loop
     * on its own instead of the whole per-client set-up with it.
     */
    private Scored score(CompiledRun run, NdArray[] feeds, Iterable<?> data, String where) {
      double lossSum = 0;
      double correct = 0;
      long n = 0;
      long i = 0;
      for (Object element : data) {
        LocalBatch b = batches.read(element, where, i);
        feeds[params.size()] = b.x();
        feeds[params.size() + 1] = b.y();
        NdArray[] out;
        try {
          out = run.run(feeds);
        } catch (GraphExecutionException ex) {
          throw new LocalRunException(where + ", batch " + i + ": " + ex.getMessage(), ex);
        }
        lossSum += out[0].get(0) * b.size();
        correct += out[1].get(0) * b.size();
        n += b.size();
        i++;
      }
      return new Scored(lossSum, correct, n);
    }

    /** What {@link #score} summed: example-weighted loss and accuracy, and the examples. */
    private record Scored(double lossSum, double correct, long examples) {}
  }
}
