package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.DType;
import java.util.Map;

/** Plain stochastic gradient descent: {@code w -= lr * g}. Stateless apart from the step count. */
public final class Sgd extends ElementwiseOptimizer {
  private final double lr;

  public Sgd(double learningRate) {
    this.lr = positive("learning rate", learningRate);
  }

  @Override
  public String name() {
    return "sgd";
  }

  @Override
  public Map<String, Double> hyperparameters() {
    return Map.of("learning_rate", lr);
  }

  /** The learning rate. */
  public double learningRate() {
    return lr;
  }

  /**
   * Counts in {@code state} one step whose update {@code p -= lr * g} the caller applied itself,
   * fused into the gradient computation (as the trainer and the client update do): the same
   * state change as {@link #step}.
   *
   * @throws IllegalArgumentException when the state belongs to an optimizer with slots
   */
  public void countAppliedStep(OptimizerState state) {
    requireState(state);
    state.advance();
  }

  @Override
  void update(NdArray p, NdArray g, NdArray[] slots, long t) {
    if (p.dtype() == DType.FLOAT32) {
      float[] w = p.floats();
      float[] d = g.floats();
      float step = (float) lr;
      for (int i = 0; i < w.length; i++) {
        w[i] -= step * d[i];
      }
      return;
    }
    for (int i = 0; i < p.size(); i++) {
      p.set(i, p.get(i) - lr * g.get(i));
    }
  }
}
