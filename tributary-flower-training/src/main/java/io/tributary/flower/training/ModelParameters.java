package io.tributary.flower.training;

import io.tributary.flower.FlowerClientException;
import io.tributary.graph.Variable;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
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
   * The list as a map by parameter name. A floating tensor of another floating dtype than its
   * parameter's is cast to the parameter's (Flower's FedAdam and QFedAvg hand float32 models back
   * as float64); a tensor holding NaN or an infinity is refused, for training and evaluation alike.
   *
   * @throws FlowerClientException naming the first tensor whose count, dtype, shape or values are
   *     wrong
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
      if (t.dtype() != v.dtype() && t.dtype().isFloating() && v.dtype().isFloating()
          && v.shape().accepts(t.shape())) {
        t = cast(t, v.dtype());
      }
      if (t.dtype() != v.dtype() || !v.shape().accepts(t.shape())) {
        throw new FlowerClientException(op + ": parameter " + i + " (" + v.name() + ") should be "
            + v.dtype() + v.shape() + ", the server sent " + t.dtype() + t.shape());
      }
      if (t.dtype().isFloating()) {
        long bad = firstNonFinite(t);
        if (bad >= 0) {
          throw new FlowerClientException(op + ": parameter " + i + " (" + v.name() + ") holds "
              + t.getAsDouble(bad) + " at element " + bad + "; the model must be finite");
        }
      }
      out.put(v.name(), t);
    }
    return out;
  }

  /** {@code t}'s values as {@code dtype}, rounded to nearest. */
  static Tensor cast(Tensor t, DType dtype) {
    TensorBuilder b = TensorBuilder.allocate(dtype, t.shape());
    for (long j = 0; j < t.size(); j++) {
      double x = t.getAsDouble(j);
      if (dtype == DType.FLOAT64) {
        b.setDouble(j, x);
      } else {
        b.setFloat(j, (float) x);
      }
    }
    return b.build();
  }

  /** The index of the first NaN or infinity of a floating tensor; -1 when there is none. */
  static long firstNonFinite(Tensor t) {
    for (long j = 0; j < t.size(); j++) {
      if (!Double.isFinite(t.getAsDouble(j))) {
        return j;
      }
    }
    return -1;
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
