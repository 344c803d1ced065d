package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An optimizer's state: the step count, and for each parameter one array per slot name (in the
 * optimizer's {@link Optimizer#slotNames()} order). Mutable: {@link Optimizer#step} updates it.
 */
public final class OptimizerState {
  private final List<String> slotNames;
  private final Map<String, NdArray[]> slots;
  private long step;

  OptimizerState(List<String> slotNames, Map<String, NdArray[]> slots, long step) {
    this.slotNames = List.copyOf(slotNames);
    this.slots = slots;
    this.step = step;
  }

  /**
   * Restores a state from tensors, as the model file's updater state holds it.
   *
   * @param slotTensors per parameter, one tensor per slot name, in order
   * @throws IllegalArgumentException when a parameter has the wrong number of slots or a step is
   *     negative
   */
  public static OptimizerState fromTensors(List<String> slotNames, long step,
      Map<String, List<Tensor>> slotTensors) {
    if (step < 0) {
      throw new IllegalArgumentException("step must be >= 0, got " + step);
    }
    Map<String, NdArray[]> m = new LinkedHashMap<>();
    for (Map.Entry<String, List<Tensor>> e : slotTensors.entrySet()) {
      if (e.getValue().size() != slotNames.size()) {
        throw new IllegalArgumentException("parameter '" + e.getKey() + "' has " + e.getValue().size()
            + " slots, expected " + slotNames.size() + " " + slotNames);
      }
      NdArray[] arr = new NdArray[slotNames.size()];
      for (int i = 0; i < arr.length; i++) {
        arr[i] = NdArray.fromTensor(e.getValue().get(i));
      }
      m.put(e.getKey(), arr);
    }
    return new OptimizerState(slotNames, m, step);
  }

  /** How many steps have been applied. */
  public long step() {
    return step;
  }

  void advance() {
    step++;
  }

  public List<String> slotNames() {
    return slotNames;
  }

  /** The parameters that have slots, in order. */
  public List<String> parameters() {
    return Collections.unmodifiableList(new ArrayList<>(slots.keySet()));
  }

  /** The live slot arrays of a parameter (empty for a stateless optimizer's parameters). */
  public NdArray[] slots(String param) {
    NdArray[] s = slots.get(param);
    if (s == null) {
      throw new IllegalArgumentException("optimizer state has no slots for parameter '" + param + "'");
    }
    return s;
  }

  /** The state as tensors: per parameter, one tensor per slot name, in order. */
  public Map<String, List<Tensor>> toTensors() {
    Map<String, List<Tensor>> out = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray[]> e : slots.entrySet()) {
      List<Tensor> ts = new ArrayList<>();
      for (NdArray a : e.getValue()) {
        ts.add(a.toTensor());
      }
      out.put(e.getKey(), List.copyOf(ts));
    }
    return out;
  }

  /** A deep copy. */
  public OptimizerState copy() {
    Map<String, NdArray[]> m = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray[]> e : slots.entrySet()) {
      NdArray[] c = new NdArray[e.getValue().length];
      for (int i = 0; i < c.length; i++) {
        c[i] = e.getValue()[i].copy();
      }
      m.put(e.getKey(), c);
    }
    return new OptimizerState(slotNames, m, step);
  }
}
