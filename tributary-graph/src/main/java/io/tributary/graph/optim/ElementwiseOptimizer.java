package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared frame of optimizers whose update treats each element independently: checks, slot
 * allocation, and the loop over parameters. Subclasses give the per-element rule.
 */
abstract class ElementwiseOptimizer implements Optimizer {
  private final List<String> slotNames;

  ElementwiseOptimizer(String... slotNames) {
    this.slotNames = List.of(slotNames);
  }

  static double positive(String name, double v) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be a positive finite number, got " + v);
    }
    return v;
  }

  static double unitInterval(String name, double v) {
    if (!(v >= 0 && v < 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1), got " + v);
    }
    return v;
  }

  @Override
  public final List<String> slotNames() {
    return slotNames;
  }

  /** The value every slot starts at, by slot index. */
  double initialSlotValue(int slot) {
    return 0.0;
  }

  @Override
  public final OptimizerState init(Map<String, NdArray> params) {
    Map<String, NdArray[]> slots = new LinkedHashMap<>();
    for (Map.Entry<String, NdArray> e : params.entrySet()) {
      NdArray p = e.getValue();
      if (!p.isFloating()) {
        throw new IllegalArgumentException("parameter '" + e.getKey() + "' is " + p.dtype()
            + ", not floating");
      }
      NdArray[] s = new NdArray[slotNames.size()];
      for (int i = 0; i < s.length; i++) {
        s[i] = NdArray.zeros(p.dtype(), p.shape());
        double v = initialSlotValue(i);
        if (v != 0) {
          for (int k = 0; k < s[i].size(); k++) {
            s[i].set(k, v);
          }
        }
      }
      slots.put(e.getKey(), s);
    }
    return new OptimizerState(slotNames, slots, 0);
  }

  @Override
  public final void step(Map<String, NdArray> params, Map<String, NdArray> grads,
      OptimizerState state) {
    requireState(state);
    for (Map.Entry<String, NdArray> e : params.entrySet()) {
      String name = e.getKey();
      NdArray p = e.getValue();
      NdArray g = grads.get(name);
      if (g == null) {
        throw new IllegalArgumentException("no gradient for parameter '" + name + "'");
      }
      requireSame(name, "gradient", p, g);
      NdArray[] s = state.slots(name);
      for (NdArray slot : s) {
        requireSame(name, "optimizer slot", p, slot);
      }
    }
    long t = state.step() + 1;
    for (Map.Entry<String, NdArray> e : params.entrySet()) {
      update(e.getValue(), grads.get(e.getKey()), state.slots(e.getKey()), t);
    }
    state.advance();
  }

  private static void requireSame(String name, String what, NdArray p, NdArray other) {
    if (p.dtype() != other.dtype() || !Arrays.equals(p.shape(), other.shape())) {
      throw new IllegalArgumentException("parameter '" + name + "' is " + p + " but its " + what
          + " is " + other);
    }
  }

  /** Updates one parameter in place; {@code t} is the 1-based number of this step. */
  abstract void update(NdArray param, NdArray grad, NdArray[] slots, long t);
}
