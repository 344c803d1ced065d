package io.tributary.graph;

import io.tributary.graph.ops.OpDef;
import io.tributary.graph.ops.OpInferenceException;
import io.tributary.graph.ops.OpRegistry;
import io.tributary.graph.ops.ValueType;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link Graph}: declares variables, and adds ops whose output variables are created with
 * the inferred dtype and shape. Each op is checked as it is added, so a mistake is reported at the
 * line that made it, naming the op.
 */
public final class GraphBuilder {
  private final List<Variable> variables = new ArrayList<>();
  private final Map<String, Variable> byName = new LinkedHashMap<>();
  private final List<Op> ops = new ArrayList<>();
  private final Set<String> opNames = new HashSet<>();
  private final Map<String, Tensor> constants = new LinkedHashMap<>();
  private int counter;

  public GraphBuilder() {}

  /** A builder that continues a valid graph (autodiff adds gradient ops this way). */
  public static GraphBuilder from(Graph graph) {
    graph.validate();
    GraphBuilder b = new GraphBuilder();
    for (Variable v : graph.variables()) {
      b.declare(v);
    }
    b.constants.putAll(graph.constants());
    for (Op op : graph.topologicalOrder()) {
      b.ops.add(op);
      b.opNames.add(op.name());
    }
    return b;
  }

  /** Declares a placeholder; -1 marks a dimension given at run time. Returns its name. */
  public String placeholder(String name, DType dtype, long... dims) {
    return declare(new Variable(name, dtype, PartialShape.of(dims), VariableKind.PLACEHOLDER));
  }

  /** Declares a trainable parameter of fully known shape. Returns its name. */
  public String trainable(String name, DType dtype, long... dims) {
    PartialShape s = PartialShape.of(dims);
    if (!s.isFullyKnown()) {
      throw new IllegalArgumentException("trainable '" + name + "' needs a known shape, got " + s);
    }
    return declare(new Variable(name, dtype, s, VariableKind.TRAINABLE));
  }

  /** Declares a constant with its value. Returns its name. */
  public String constant(String name, Tensor value) {
    declare(new Variable(name, value.dtype(), PartialShape.of(value.shape()), VariableKind.CONSTANT));
    constants.put(name, value);
    return name;
  }

  private String declare(Variable v) {
    if (byName.containsKey(v.name())) {
      throw new IllegalArgumentException("a variable named '" + v.name() + "' already exists");
    }
    variables.add(v);
    byName.put(v.name(), v);
    return v.name();
  }

  /** True when a variable of this name exists. */
  public boolean has(String name) {
    return byName.containsKey(name);
  }

  /** The declared type of a variable. */
  public ValueType typeOf(String name) {
    Variable v = byName.get(name);
    if (v == null) {
      throw new IllegalArgumentException("no variable named '" + name + "'");
    }
    return new ValueType(v.dtype(), v.shape());
  }

  /** A name not yet used by any op or variable, starting from {@code base}. */
  public String uniqueName(String base) {
    String name = base;
    while (byName.containsKey(name) || opNames.contains(name)) {
      name = base + "_" + (++counter);
    }
    return name;
  }

  /** Adds a single-output op with an automatic name; returns the output variable's name. */
  public String op(String type, OpArgs args, String... inputs) {
    return opNamed(uniqueName(type), type, args, inputs);
  }

  /** Adds a single-output op with no arguments; returns the output variable's name. */
  public String op(String type, String... inputs) {
    return op(type, OpArgs.none(), inputs);
  }

  /**
   * Adds a single-output op named {@code name}; its output variable has the same name.
   *
   * @throws GraphValidationException naming the op, when it does not fit its inputs
   */
  public String opNamed(String name, String type, OpArgs args, String... inputs) {
    return opWithOutputs(name, type, args, List.of(inputs), List.of(name)).get(0);
  }

  /** Adds an op with explicit output names; returns them. */
  public List<String> opWithOutputs(String name, String type, OpArgs args, List<String> inputs,
      List<String> outputs) {
    if (opNames.contains(name)) {
      throw problem(GraphProblem.Kind.DUPLICATE_NAME, name, "another op has the same name");
    }
    OpDef def = OpRegistry.standard().find(type).orElseThrow(
        () -> problem(GraphProblem.Kind.UNKNOWN_OP_TYPE, name, "op type '" + type + "' is not known"));
    List<ValueType> in = new ArrayList<>();
    for (String i : inputs) {
      Variable v = byName.get(i);
      if (v == null) {
        throw problem(GraphProblem.Kind.UNKNOWN_INPUT, name, "input '" + i + "' is not a variable");
      }
      in.add(new ValueType(v.dtype(), v.shape()));
    }
    if (in.size() < def.minInputs() || in.size() > def.maxInputs()) {
      throw problem(GraphProblem.Kind.WRONG_INPUT_COUNT, name,
          type + " cannot take " + in.size() + " inputs");
    }
    for (String a : def.requiredArgs()) {
      if (!args.has(a)) {
        throw problem(GraphProblem.Kind.MISSING_ARGUMENT, name, type + " needs argument '" + a + "'");
      }
    }
    if (outputs.size() != def.outputCount()) {
      throw problem(GraphProblem.Kind.WRONG_INPUT_COUNT, name,
          type + " writes " + def.outputCount() + " outputs, got " + outputs.size());
    }
    List<ValueType> types;
    try {
      types = def.infer(new Op(name, type, inputs, outputs, args), in);
    } catch (OpInferenceException e) {
      throw problem(e.kind(), name, type + ": " + e.getMessage());
    }
    for (String o : outputs) {
      if (byName.containsKey(o)) {
        throw problem(GraphProblem.Kind.DUPLICATE_NAME, name, "output '" + o + "' already exists");
      }
    }
    for (int i = 0; i < outputs.size(); i++) {
      ValueType t = types.get(i);
      declare(new Variable(outputs.get(i), t.dtype(), t.shape(), VariableKind.ARRAY));
    }
    ops.add(new Op(name, type, inputs, outputs, args));
    opNames.add(name);
    return outputs;
  }

  private static GraphValidationException problem(GraphProblem.Kind kind, String op, String msg) {
    return new GraphValidationException(List.of(new GraphProblem(kind, op, msg)));
  }

  /** The graph built so far, validated. */
  public Graph build() {
    return Graph.of(variables, ops, constants).validate();
  }
}
