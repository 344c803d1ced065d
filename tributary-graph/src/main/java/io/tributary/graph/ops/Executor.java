package io.tributary.graph.ops;

import io.tributary.graph.Graph;
import io.tributary.graph.GraphExecutionException;
import io.tributary.graph.Op;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a validated graph: given values for its placeholders and trainable parameters, computes the
 * requested variables, running only the ops they need and dropping intermediates after their last
 * use.
 *
 * <p>Plans are cached per set of requested outputs, so an executor is not thread-safe; use one per
 * thread.
 */
public final class Executor {
  private final Graph graph;
  private final Map<String, NdArray> constants = new HashMap<>();
  private final Map<List<String>, Plan> plans = new HashMap<>();

  private record Step(Op op, OpDef def, List<String> release) {}

  private record Plan(List<Step> steps, List<Variable> needed) {}

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
    Plan plan = plans.computeIfAbsent(List.copyOf(outputs), this::plan);
    Map<String, NdArray> env = new HashMap<>(constants);
    for (Variable v : plan.needed()) {
      NdArray a = values.get(v.name());
      if (a == null) {
        throw new GraphExecutionException(
            "no value given for " + v.kind().name().toLowerCase(java.util.Locale.ROOT) + " '"
                + v.name() + "'");
      }
      checkFits(v, a, "value given for");
      env.put(v.name(), a);
    }
    for (Step s : plan.steps()) {
      Op op = s.op();
      NdArray[] in = new NdArray[op.inputs().size()];
      for (int i = 0; i < in.length; i++) {
        in[i] = env.get(op.inputs().get(i));
      }
      NdArray[] out;
      try {
        out = s.def().compute(op, in);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new GraphExecutionException("op '" + op.name() + "' (" + op.type() + ") failed on "
            + NdArray.describe(Arrays.asList(in)) + ": " + e.getMessage(), e);
      }
      for (int i = 0; i < out.length; i++) {
        Variable v = graph.requireVariable(op.outputs().get(i));
        checkFits(v, out[i], "op '" + op.name() + "' computed a value that does not fit");
        env.put(v.name(), out[i]);
      }
      for (String r : s.release()) {
        env.remove(r);
      }
    }
    Map<String, NdArray> result = new LinkedHashMap<>();
    for (String o : outputs) {
      NdArray a = env.get(o);
      if (a == null) {
        a = values.get(o);
      }
      result.put(o, a);
    }
    return result;
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

  private static void checkFits(Variable v, NdArray a, String what) {
    long[] dims = new long[a.rank()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = a.dim(i);
    }
    if (a.dtype() != v.dtype() || !v.shape().accepts(io.tributary.tensor.Shape.of(dims))) {
      throw new GraphExecutionException(what + " '" + v.name() + "': expected " + v.dtype()
          + v.shape() + ", got " + a.dtype() + Arrays.toString(a.shape()));
    }
  }

  private Plan plan(List<String> outputs) {
    Map<String, Op> writer = new HashMap<>();
    for (Op op : graph.ops()) {
      for (String o : op.outputs()) {
        writer.put(o, op);
      }
    }
    Set<String> wanted = new HashSet<>();
    ArrayList<String> stack = new ArrayList<>();
    for (String o : outputs) {
      graph.requireVariable(o);
      stack.add(o);
    }
    Set<Op> neededOps = new HashSet<>();
    List<Variable> needed = new ArrayList<>();
    while (!stack.isEmpty()) {
      String name = stack.remove(stack.size() - 1);
      if (!wanted.add(name)) {
        continue;
      }
      Op w = writer.get(name);
      if (w != null) {
        if (neededOps.add(w)) {
          stack.addAll(w.inputs());
        }
      } else {
        Variable v = graph.requireVariable(name);
        if (v.kind() == VariableKind.PLACEHOLDER || v.kind() == VariableKind.TRAINABLE) {
          needed.add(v);
        }
      }
    }
    List<Op> order = new ArrayList<>();
    for (Op op : graph.topologicalOrder()) {
      if (neededOps.contains(op)) {
        order.add(op);
      }
    }
    Map<String, Integer> lastUse = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      for (String in : order.get(i).inputs()) {
        lastUse.put(in, i);
      }
    }
    Set<String> keep = new HashSet<>(outputs);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      Op op = order.get(i);
      List<String> release = new ArrayList<>();
      for (String in : new HashSet<>(op.inputs())) {
        Variable v = graph.requireVariable(in);
        if (lastUse.get(in) == i && v.kind() == VariableKind.ARRAY && !keep.contains(in)) {
          release.add(in);
        }
      }
      steps.add(new Step(op, OpRegistry.standard().find(op.type()).orElseThrow(), release));
    }
    return new Plan(steps, needed);
  }
}
