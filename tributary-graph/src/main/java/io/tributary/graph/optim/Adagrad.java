package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import java.util.Map;

/**
 * Adagrad: {@code v += g^2; w -= lr * g / (sqrt(v) + eps)}, the accumulator starting at {@code
 * initial} (TFF's default 0.1). Slot: {@code accumulator}.
 */
public final class Adagrad extends ElementwiseOptimizer {
  private final double lr;
  private final double initial;
  private final double eps;

  public Adagrad(double learningRate, double initialAccumulator, double epsilon) {
    super("accumulator");
    this.lr = positive("learning rate", learningRate);
    if (!(initialAccumulator >= 0) || !Double.isFinite(initialAccumulator)) {
      throw new IllegalArgumentException("initial accumulator must be >= 0, got " + initialAccumulator);
    }
    this.initial = initialAccumulator;
    this.eps = positive("epsilon", epsilon);
  }

  /** Adagrad with initial accumulator 0.1 and epsilon 1e-7. */
  public Adagrad(double learningRate) {
    this(learningRate, 0.1, 1e-7);
  }

  @Override
  public String name() {
    return "adagrad";
  }

  @Override
  public Map<String, Double> hyperparameters() {
    return Map.of("learning_rate", lr, "initial_accumulator", initial, "epsilon", eps);
  }

  @Override
  double initialSlotValue(int slot) {
    return initial;
  }

  @Override
  void update(NdArray p, NdArray g, NdArray[] slots, long t) {
    NdArray v = slots[0];
    for (int i = 0; i < p.size(); i++) {
      double gi = g.get(i);
      double vi = v.get(i) + gi * gi;
      v.set(i, vi);
      p.set(i, p.get(i) - lr * gi / (Math.sqrt(vi) + eps));
    }
  }
}
