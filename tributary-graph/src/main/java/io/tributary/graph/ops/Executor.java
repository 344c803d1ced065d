package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Variable;
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
 * <p>Plans are cached per set of requested outputs, so an executor is not thread-safe; use one per
 * thread. A loop that runs the same outputs many times (a training step) should {@link #compile}
 * them instead.
 */
public final class Executor {
  private final Graph graph;
  private final Map<String, NdArray> constants = new HashMap<>();
  private final Map<List<String>, Plan> plans = new HashMap<>();

  public Executor(Graph graph) {
    this.graph = graph.validate();
    for (Map.Entry<String, Tensor> e : graph.constants().entrySet()) {
      constants.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
  }

  public Graph graph() {
    return graph;
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
    List<String> feedList = List.copyOf(feeds);
    for (String f : feedList) {
      graph.variable(f).orElseThrow(() -> new GraphExecutionException(
          "feed '" + f + "' is not a variable of the graph"));
    }
    for (String o : outputs) {
      graph.variable(o).orElseThrow(() -> new GraphExecutionException(
          "output '" + o + "' is not a variable of the graph"));
    }
    return new CompiledRun(plan(List.copyOf(outputs)), feedList, List.copyOf(outputs));
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
    return plans.computeIfAbsent(outputs, o -> Plan.of(graph, o, constants));
  }
}
