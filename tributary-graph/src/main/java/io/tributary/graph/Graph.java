package io.tributary.graph;

import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An op graph: variables, ops that read and write them by name, and the values of its constants.
 *
 * <p>Immutable. A graph can hold mistakes (it is what a file said); {@link #validate()} finds them
 * all. Build graphs with {@link GraphBuilder}, which validates as it goes.
 */
public final class Graph {
  private final List<Variable> variables;
  private final List<Op> ops;
  private final Map<String, Tensor> constants;
  private final Map<String, Variable> byName;

  private Graph(List<Variable> variables, List<Op> ops, Map<String, Tensor> constants) {
    this.variables = List.copyOf(variables);
    this.ops = List.copyOf(ops);
    this.constants = Collections.unmodifiableMap(new LinkedHashMap<>(constants));
    Map<String, Variable> m = new LinkedHashMap<>();
    for (Variable v : this.variables) {
      m.putIfAbsent(v.name(), v);
    }
    this.byName = Collections.unmodifiableMap(m);
  }

  /**
   * A graph of these parts, not yet validated.
   *
   * @param constants the value of each {@link VariableKind#CONSTANT} variable, by name
   */
  public static Graph of(List<Variable> variables, List<Op> ops, Map<String, Tensor> constants) {
    Objects.requireNonNull(variables, "variables");
    Objects.requireNonNull(ops, "ops");
    Objects.requireNonNull(constants, "constants");
    return new Graph(variables, ops, constants);
  }

  /** The variables in declaration order. */
  public List<Variable> variables() {
    return variables;
  }

  /** The ops in declaration order. */
  public List<Op> ops() {
    return ops;
  }

  /** Constant values by variable name. */
  public Map<String, Tensor> constants() {
    return constants;
  }

  /** The variable with this name. */
  public Optional<Variable> variable(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The variable with this name, or an exception naming it. */
  public Variable requireVariable(String name) {
    Variable v = byName.get(name);
    if (v == null) {
      throw new IllegalArgumentException("graph has no variable '" + name + "'");
    }
    return v;
  }

  /** The variables of one kind, in declaration order. */
  public List<Variable> variablesOfKind(VariableKind kind) {
    List<Variable> out = new ArrayList<>();
    for (Variable v : variables) {
      if (v.kind() == kind) {
        out.add(v);
      }
    }
    return out;
  }

  /** Every problem in this graph, each naming its op; empty when the graph is valid. */
  public List<GraphProblem> problems() {
    return GraphValidator.problems(this);
  }

  /**
   * Checks the graph: unique names, known op types, input and output counts, unknown inputs,
   * single writers, cycles, required arguments, and dtype and shape agreement of every op.
   *
   * @throws GraphValidationException listing every problem found
   */
  public Graph validate() {
    List<GraphProblem> p = problems();
    if (!p.isEmpty()) {
      throw new GraphValidationException(p);
    }
    return this;
  }

  /** The ops ordered so each runs after the writers of its inputs; ties keep declaration order. */
  public List<Op> topologicalOrder() {
    return GraphValidator.order(this).sorted();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Graph g && variables.equals(g.variables) && ops.equals(g.ops)
        && constants.equals(g.constants);
  }

  @Override
  public int hashCode() {
    return Objects.hash(variables, ops, constants);
  }

  @Override
  public String toString() {
    return "Graph(" + variables.size() + " variables, " + ops.size() + " ops)";
  }
}
