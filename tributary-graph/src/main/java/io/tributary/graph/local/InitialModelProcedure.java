package io.tributary.graph.local;

import io.tributary.core.compiler.GraphComputation;
import io.tributary.core.compiler.LocalFunction;
import io.tributary.core.types.StructType;
import io.tributary.graph.Graph;
import io.tributary.graph.Variable;
import io.tributary.graph.VariableKind;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code initial_model} procedure: a function without parameter returning the graph's
 * constants as the model struct that the declared result type describes.
 */
final class InitialModelProcedure implements GraphProcedure {
  @Override
  public LocalFunction prepare(GraphComputation g, Graph graph) throws GraphBindingException {
    if (g.type().parameter().isPresent() || !(g.type().result() instanceof StructType model)) {
      throw new GraphBindingException("graph computation " + g.name() + " is declared as "
          + g.type() + "; an initial model has type ( -> M) with M a struct");
    }
    Map<String, Tensor> values = new LinkedHashMap<>();
    try {
      for (String p : ModelStructs.parameterNames(model)) {
        Variable v = graph.variable(p).orElseThrow(() -> new IllegalArgumentException(
            "the graph has no constant '" + p + "'"));
        Tensor t = graph.constants().get(p);
        if (v.kind() != VariableKind.CONSTANT || t == null) {
          throw new IllegalArgumentException("'" + p + "' is a " + v.kind() + ", not a constant");
        }
        values.put(p, t);
      }
      ModelStructs.fromValue(model, ModelStructs.toValue(model, values), g.name());
    } catch (IllegalArgumentException | LocalRunException e) {
      throw new GraphBindingException("graph computation " + g.name() + ": " + e.getMessage(), e);
    }
    Object result = ModelStructs.toValue(model, values);
    return argument -> result;
  }
}
