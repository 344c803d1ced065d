package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule that moves parameters against their gradients. Implementations hold only their
 * hyperparameters; everything that changes is in the {@link OptimizerState}.
 */
public interface Optimizer {
  /** A short name such as {@code adam}, for the model file's training configuration. */
  String name();

  /** The hyperparameters by name, for the model file's training configuration. */
  Map<String, Double> hyperparameters();

  /** The state arrays kept per parameter, in order (empty for plain SGD). */
  List<String> slotNames();

  /** A fresh state for these parameters. */
  OptimizerState init(Map<String, NdArray> params);

  /**
   * Updates {@code params} in place by one step, and the state with it.
   *
   * @throws IllegalArgumentException when a gradient or slot is missing or differs in shape or dtype
   */
  void step(Map<String, NdArray> params, Map<String, NdArray> grads, OptimizerState state);

  /**
   * Checks that {@code state} was made for this optimizer: it holds the slots this optimizer
   * keeps.
   *
   * @throws IllegalArgumentException naming both slot lists when it does not
   */
  default void requireState(OptimizerState state) {
    if (!state.slotNames().equals(slotNames())) {
      throw new IllegalArgumentException(name() + " needs slots " + slotNames() + ", state has "
          + state.slotNames());
    }
  }

  /** A fresh state for tensor-valued parameters. */
  default OptimizerState initTensors(Map<String, Tensor> params) {
    return init(toArrays(params));
  }

  /**
   * One step on tensors, returning new parameter tensors: the form a server optimizer uses, with
   * the aggregated update as the gradient.
   */
  default Map<String, Tensor> apply(Map<String, Tensor> params, Map<String, Tensor> grads,
      OptimizerState state) {
    Map<String, NdArray> p = toArrays(params);
    step(p, toArrays(grads), state);
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray> e : p.entrySet()) {
      out.put(e.getKey(), e.getValue().toTensor());
    }
    return out;
  }

  private static Map<String, NdArray> toArrays(Map<String, Tensor> m) {
    Map<String, NdArray> out = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : m.entrySet()) {
      out.put(e.getKey(), NdArray.fromTensor(e.getValue()));
    }
    return out;
  }
}
