package io.tributary.graph;

import io.tributary.graph.ops.OpDef;
import io.tributary.graph.ops.OpInferenceException;
import io.tributary.graph.ops.OpRegistry;
import io.tributary.graph.ops.ValueType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Finds every problem in a graph; each check reports and goes on, so one run lists them all. */
final class GraphValidator {
  private GraphValidator() {}

  /** Ops in dependency order, and the ops left over because they sit on a cycle. */
  record Order(List<Op> sorted, List<Op> cyclic) {}

  static List<GraphProblem> problems(Graph g) {
    List<GraphProblem> out = new ArrayList<>();
    Map<String, Variable> vars = checkVariables(g, out);
    Set<String> opNames = new HashSet<>();
    Map<String, String> writer = new HashMap<>();
    Set<Op> structurallyOk = new HashSet<>();
    for (Op op : g.ops()) {
      if (!opNames.add(op.name())) {
        out.add(new GraphProblem(GraphProblem.Kind.DUPLICATE_NAME, op.name(),
            "another op has the same name"));
      }
      if (checkOp(op, vars, writer, out)) {
        structurallyOk.add(op);
      }
    }
    for (Variable v : vars.values()) {
      if (v.kind() == VariableKind.ARRAY && !writer.containsKey(v.name())) {
        out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, null,
            "array variable '" + v.name() + "' is written by no op"));
      }
    }
    Order order = order(g);
    for (Op op : order.cyclic()) {
      out.add(new GraphProblem(GraphProblem.Kind.CYCLE, op.name(),
          "op depends on its own output through a cycle"));
    }
    for (Op op : order.sorted()) {
      if (structurallyOk.contains(op)) {
        checkTypes(op, vars, out);
      }
    }
    return out;
  }

  private static Map<String, Variable> checkVariables(Graph g, List<GraphProblem> out) {
    Map<String, Variable> vars = new HashMap<>();
    for (Variable v : g.variables()) {
      if (vars.putIfAbsent(v.name(), v) != null) {
        out.add(new GraphProblem(GraphProblem.Kind.DUPLICATE_NAME, null,
            "two variables are named '" + v.name() + "'"));
        continue;
      }
      Tensor value = g.constants().get(v.name());
      if (v.kind() == VariableKind.CONSTANT) {
        if (value == null) {
          out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, null,
              "constant '" + v.name() + "' has no value"));
        } else if (value.dtype() != v.dtype() || !v.shape().isFullyKnown()
            || !v.shape().accepts(value.shape())) {
          out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, null,
              "constant '" + v.name() + "' is declared " + v.dtype() + v.shape() + " but its value is "
                  + value.dtype() + value.shape()));
        }
      } else if (value != null) {
        out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, null,
            "variable '" + v.name() + "' is " + v.kind() + " but has a constant value"));
      }
    }
    for (String name : g.constants().keySet()) {
      if (!vars.containsKey(name)) {
        out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, null,
            "constant value for undeclared variable '" + name + "'"));
      }
    }
    return vars;
  }

  /** Checks everything but types; true when type inference can run on this op. */
  private static boolean checkOp(Op op, Map<String, Variable> vars, Map<String, String> writer,
      List<GraphProblem> out) {
    boolean ok = true;
    for (String in : op.inputs()) {
      if (!vars.containsKey(in)) {
        out.add(new GraphProblem(GraphProblem.Kind.UNKNOWN_INPUT, op.name(),
            "input '" + in + "' is not a variable of the graph"));
        ok = false;
      }
    }
    for (String o : op.outputs()) {
      Variable v = vars.get(o);
      if (v == null) {
        out.add(new GraphProblem(GraphProblem.Kind.UNKNOWN_OUTPUT, op.name(),
            "output '" + o + "' is not a variable of the graph"));
        ok = false;
      } else if (v.kind() != VariableKind.ARRAY) {
        out.add(new GraphProblem(GraphProblem.Kind.BAD_VARIABLE, op.name(),
            "output '" + o + "' is a " + v.kind() + ", not an ARRAY"));
        ok = false;
      } else {
        String prev = writer.putIfAbsent(o, op.name());
        if (prev != null) {
          out.add(new GraphProblem(GraphProblem.Kind.MULTIPLE_WRITERS, op.name(),
              "output '" + o + "' is also written by op '" + prev + "'"));
          ok = false;
        }
      }
    }
    Optional<OpDef> def = OpRegistry.standard().find(op.type());
    if (def.isEmpty()) {
      out.add(new GraphProblem(GraphProblem.Kind.UNKNOWN_OP_TYPE, op.name(),
          "op type '" + op.type() + "' is not known"));
      return false;
    }
    OpDef d = def.get();
    int n = op.inputs().size();
    if (n < d.minInputs() || n > d.maxInputs()) {
      String want = d.minInputs() == d.maxInputs() ? Integer.toString(d.minInputs())
          : d.maxInputs() == Integer.MAX_VALUE ? "at least " + d.minInputs()
          : d.minInputs() + " to " + d.maxInputs();
      out.add(new GraphProblem(GraphProblem.Kind.WRONG_INPUT_COUNT, op.name(),
          op.type() + " takes " + want + " inputs, got " + n));
      ok = false;
    }
    if (op.outputs().size() != d.outputCount()) {
      out.add(new GraphProblem(GraphProblem.Kind.WRONG_INPUT_COUNT, op.name(),
          op.type() + " writes " + d.outputCount() + " outputs, got " + op.outputs().size()));
      ok = false;
    }
    for (String arg : d.requiredArgs()) {
      if (!op.args().has(arg)) {
        out.add(new GraphProblem(GraphProblem.Kind.MISSING_ARGUMENT, op.name(),
            op.type() + " needs argument '" + arg + "'"));
        ok = false;
      }
    }
    return ok;
  }

  private static void checkTypes(Op op, Map<String, Variable> vars, List<GraphProblem> out) {
    OpDef d = OpRegistry.standard().find(op.type()).orElseThrow();
    List<ValueType> in = new ArrayList<>();
    for (String name : op.inputs()) {
      Variable v = vars.get(name);
      in.add(new ValueType(v.dtype(), v.shape()));
    }
    List<ValueType> inferred;
    try {
      inferred = d.infer(op, in);
    } catch (OpInferenceException e) {
      out.add(new GraphProblem(e.kind(), op.name(), op.type() + ": " + e.getMessage()));
      return;
    }
    for (int i = 0; i < inferred.size(); i++) {
      Variable v = vars.get(op.outputs().get(i));
      ValueType t = inferred.get(i);
      if (t.dtype() != v.dtype()) {
        out.add(new GraphProblem(GraphProblem.Kind.DTYPE_MISMATCH, op.name(), op.type()
            + " computes " + t.dtype() + " but output '" + v.name() + "' is declared " + v.dtype()));
      } else if (!t.shape().compatibleWith(v.shape())) {
        out.add(new GraphProblem(GraphProblem.Kind.SHAPE_MISMATCH, op.name(), op.type()
            + " computes shape " + t.shape() + " but output '" + v.name() + "' is declared "
            + v.shape()));
      }
    }
  }

  /** Kahn's algorithm over ops; an op waits for the op that writes each of its inputs. */
  static Order order(Graph g) {
    Map<String, Integer> writerIndex = new HashMap<>();
    List<Op> ops = g.ops();
    for (int i = 0; i < ops.size(); i++) {
      for (String o : ops.get(i).outputs()) {
        writerIndex.putIfAbsent(o, i);
      }
    }
    int[] waiting = new int[ops.size()];
    List<List<Integer>> readers = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      readers.add(new ArrayList<>());
    }
    for (int i = 0; i < ops.size(); i++) {
      Set<Integer> deps = new HashSet<>();
      for (String in : ops.get(i).inputs()) {
        Integer w = writerIndex.get(in);
        if (w != null && deps.add(w)) {
          readers.get(w).add(i);
          waiting[i]++;
        }
      }
    }
    java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
    for (int i = 0; i < ops.size(); i++) {
      if (waiting[i] == 0) {
        ready.add(i);
      }
    }
    List<Op> sorted = new ArrayList<>();
    boolean[] done = new boolean[ops.size()];
    while (!ready.isEmpty()) {
      int i = ready.poll();
      done[i] = true;
      sorted.add(ops.get(i));
      for (int r : readers.get(i)) {
        if (--waiting[r] == 0) {
          ready.add(r);
        }
      }
    }
    List<Op> cyclic = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      if (!done[i]) {
        cyclic.add(ops.get(i));
      }
    }
    return new Order(sorted, cyclic);
  }
}
