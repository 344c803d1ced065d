package io.tributary.flower.training;

import io.tributary.flower.FlowerClientException;
import io.tributary.graph.Variable;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's parameters as Flower carries them, a list in a fixed order, checked against the
 * model before any of it is used.
 */
final class ModelParameters {
  private final List<Variable> variables;

  /** For parameters in the order of {@code variables}. */
  ModelParameters(List<Variable> variables) {
    this.variables = List.copyOf(variables);
  }

  /**
   * The list as a map by parameter name.
   *
   * @throws FlowerClientException naming the first tensor whose count, dtype or shape is wrong
   */
  Map<String, Tensor> byName(String op, List<Tensor> tensors) throws FlowerClientException {
    if (tensors.size() != variables.size()) {
      throw new FlowerClientException(op + ": the model has " + variables.size()
          + " parameter tensors, the server sent " + tensors.size());
    }
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < tensors.size(); i++) {
      Variable v = variables.get(i);
      Tensor t = tensors.get(i);
      if (t.dtype() != v.dtype() || !v.shape().accepts(t.shape())) {
        throw new FlowerClientException(op + ": parameter " + i + " (" + v.name() + ") should be "
            + v.dtype() + v.shape() + ", the server sent " + t.dtype() + t.shape());
      }
      out.put(v.name(), t);
    }
    return out;
  }

  /** The map as a list in the model's order. */
  List<Tensor> toList(Map<String, Tensor> byName) {
    List<Tensor> out = new ArrayList<>(variables.size());
    for (Variable v : variables) {
      out.add(byName.get(v.name()));
    }
    return out;
  }
}
