package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.tensor.Tensor;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a validated graph: given values for its placeholders and trainable parameters, computes the
 * requested variables, running only the ops they need and dropping intermediates after their last
 * use.
 *
 * <p>Its matrix products run on the {@link GemmKernel} it was made with ({@link
 * GemmKernel#DEFAULT}, the Java kernels, unless the run chose another).
 *
 * <p>Plans are cached per set of requested outputs, so an executor is not thread-safe; use one per
 * thread. A loop that runs the same outputs many times (a training step) should {@link #compile}
 * them instead.
 */
public final class GraphExecutor {
  private final Graph graph;
  private final Map<String, NdArray> constants = new HashMap<>();
  private final Map<PlanKey, Plan> plans = new HashMap<>();
  private final GemmKernel gemm;

  /** What a plan computes: its outputs and the accumulations it adds onto fed arrays. */
  private record PlanKey(List<String> outputs, List<Accumulation> accumulations) {}

  /** An executor of {@code graph} on {@link GemmKernel#DEFAULT}. */
  public GraphExecutor(Graph graph) {
    this(graph, GemmKernel.DEFAULT);
  }

  /**
   * An executor of {@code graph} whose matrix products run on {@code gemm}.
   *
   * @throws IllegalStateException when {@code gemm} cannot run in this JVM (naming why)
   */
  public GraphExecutor(Graph graph, GemmKernel gemm) {
    this.gemm = java.util.Objects.requireNonNull(gemm, "gemm").requireAvailable();
    this.graph = graph.validate();
    for (Map.Entry<String, Tensor> e : graph.constants().entrySet()) {
      constants.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
  }

  public Graph graph() {
    return graph;
  }

  /** The kernel this executor's matrix products run on. */
  public GemmKernel gemmKernel() {
    return gemm;
  }

  /**
   * Computes {@code outputs}.
   *
   * @param values placeholder and trainable values by name (extra entries are ignored)
   * @throws GraphExecutionException when a needed value is missing or of the wrong dtype or shape,
   *     or an op fails at run time (naming the op)
   */
  public Map<String, NdArray> run(Map<String, NdArray> values, Collection<String> outputs) {
    Plan plan = plan(List.copyOf(outputs));
    NdArray[] env = plan.newValues();
    Variable[] needed = plan.needed();
    for (int i = 0; i < needed.length; i++) {
      NdArray a = values.get(needed[i].name());
      if (a == null) {
        throw Plan.missing(needed[i]);
      }
      Plan.checkFits(needed[i], a, "value given for");
      env[plan.neededSlots()[i]] = a;
    }
    plan.execute(env, null, plan.newAccepted(), null);
    Map<String, NdArray> result = new LinkedHashMap<>();
    int k = 0;
    for (String o : outputs) {
      NdArray a = env[plan.outputSlots()[k++]];
      result.put(o, a != null ? a : values.get(o));
    }
    return result;
  }

  /**
   * Compiles a run of {@code outputs} from values of {@code feeds}, given by position, that reuses
   * its arrays from one call to the next.
   *
   * @param feeds the placeholders and trainable parameters to feed, in the order {@link
   *     CompiledRun#run} takes them; those the outputs do not need are ignored
   * @throws GraphExecutionException when a feed or output is not in the graph, or the outputs
   *     need a placeholder or parameter that is not among the feeds
   */
  public CompiledRun compile(List<String> feeds, List<String> outputs) {
    return compile(feeds, outputs, List.of());
  }

  /**
   * As {@link #compile(List, List)}, and each run then adds every accumulation's scaled value onto
   * the array fed for its target, in place, after all ops have read it (see {@link
   * Accumulation}). The accumulated values are not returned unless they are also among the
   * outputs.
   *
   * @throws GraphExecutionException as {@link #compile(List, List)}, or when an accumulation's
   *     output or target is not in the graph, its target is not a fed placeholder or parameter,
   *     is an output or the target of another accumulation, or its value cannot fit the target
   *     (dtype, shape, or not floating)
   */
  public CompiledRun compile(List<String> feeds, List<String> outputs,
      List<Accumulation> accumulations) {
    List<String> feedList = List.copyOf(feeds);
    for (String f : feedList) {
      graph.variable(f).orElseThrow(() -> new GraphExecutionException(
          "feed '" + f + "' is not a variable of the graph"));
    }
    for (String o : outputs) {
      graph.variable(o).orElseThrow(() -> new GraphExecutionException(
          "output '" + o + "' is not a variable of the graph"));
    }
    List<Accumulation> acc = List.copyOf(accumulations);
    checkAccumulations(feedList, outputs, acc);
    return new CompiledRun(plan(List.copyOf(outputs), acc), feedList, List.copyOf(outputs));
  }

  private void checkAccumulations(List<String> feeds, List<String> outputs,
      List<Accumulation> accumulations) {
    java.util.Set<String> targets = new java.util.HashSet<>();
    for (Accumulation a : accumulations) {
      String what = Accumulation.describe(a.output(), a.target()) + ": ";
      Variable out = graph.variable(a.output()).orElseThrow(() -> new GraphExecutionException(
          what + "'" + a.output() + "' is not a variable of the graph"));
      Variable target = graph.variable(a.target()).orElseThrow(() -> new GraphExecutionException(
          what + "'" + a.target() + "' is not a variable of the graph"));
      if (!feeds.contains(a.target()) || (target.kind() != VariableKind.PLACEHOLDER
          && target.kind() != VariableKind.TRAINABLE)) {
        throw new GraphExecutionException(what + "the target must be a fed placeholder or "
            + "trainable parameter");
      }
      if (outputs.contains(a.target())) {
        throw new GraphExecutionException(what + "the target is also an output");
      }
      if (!targets.add(a.target())) {
        throw new GraphExecutionException(what + "another accumulation has the same target");
      }
      if (!Infer.isFloat(out.dtype()) || out.dtype() != target.dtype()
          || !out.shape().compatibleWith(target.shape())) {
        throw new GraphExecutionException(what + "the value is " + out.dtype() + out.shape()
            + " but the target is " + target.dtype() + target.shape()
            + " (both must be floating, of one dtype and shape)");
      }
    }
  }

  /** As {@link #run}, with tensors at both edges. */
  public Map<String, Tensor> runTensors(Map<String, Tensor> values, Collection<String> outputs) {
    Map<String, NdArray> in = new HashMap<>();
    for (Map.Entry<String, Tensor> e : values.entrySet()) {
      in.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray> e : run(in, outputs).entrySet()) {
      out.put(e.getKey(), e.getValue().toTensor());
    }
    return out;
  }

  private Plan plan(List<String> outputs) {
    return plan(outputs, List.of());
  }

  private Plan plan(List<String> outputs, List<Accumulation> accumulations) {
    return plans.computeIfAbsent(new PlanKey(outputs, accumulations),
        k -> Plan.of(graph, k.outputs(), k.accumulations(), constants, gemm));
  }
}
