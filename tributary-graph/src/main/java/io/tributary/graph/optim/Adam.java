package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import java.util.Map;

/**
 * Adam (Kingma and Ba), in the Keras and TFF form: {@code m = b1 m + (1 - b1) g}, {@code v = b2 v +
 * (1 - b2) g^2}, {@code w -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)}. Slots:
 * {@code m}, {@code v}.
 */
public final class Adam extends ElementwiseOptimizer {
  private final double lr;
  private final double beta1;
  private final double beta2;
  private final double eps;

  public Adam(double learningRate, double beta1, double beta2, double epsilon) {
    super("m", "v");
    this.lr = positive("learning rate", learningRate);
    this.beta1 = unitInterval("beta1", beta1);
    this.beta2 = unitInterval("beta2", beta2);
    this.eps = positive("epsilon", epsilon);
  }

  /** Adam with beta1 0.9, beta2 0.999, epsilon 1e-7. */
  public Adam(double learningRate) {
    this(learningRate, 0.9, 0.999, 1e-7);
  }

  @Override
  public String name() {
    return "adam";
  }

  @Override
  public Map<String, Double> hyperparameters() {
    return Map.of("learning_rate", lr, "beta1", beta1, "beta2", beta2, "epsilon", eps);
  }

  @Override
  void update(NdArray p, NdArray g, NdArray[] slots, long t) {
    NdArray m = slots[0];
    NdArray v = slots[1];
    double stepSize = lr * Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
    for (int i = 0; i < p.size(); i++) {
      double gi = g.get(i);
      double mi = beta1 * m.get(i) + (1 - beta1) * gi;
      double vi = beta2 * v.get(i) + (1 - beta2) * gi * gi;
      m.set(i, mi);
      v.set(i, vi);
      p.set(i, p.get(i) - stepSize * mi / (Math.sqrt(vi) + eps));
    }
  }
}
