package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import java.util.Map;

/**
 * Yogi (Zaheer et al.; the server optimizer of Reddi et al.'s adaptive federated optimization):
 * like {@link Adam} but {@code v -= (1 - b2) * sign(v - g^2) * g^2}, so v changes additively. The
 * step is {@code lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)}; v starts at {@code
 * initial} (TFF's default 1e-6). Slots: {@code m}, {@code v}.
 */
public final class Yogi extends ElementwiseOptimizer {
  private final double lr;
  private final double beta1;
  private final double beta2;
  private final double eps;
  private final double initial;

  public Yogi(double learningRate, double beta1, double beta2, double epsilon, double initialV) {
    super("m", "v");
    this.lr = positive("learning rate", learningRate);
    this.beta1 = unitInterval("beta1", beta1);
    this.beta2 = unitInterval("beta2", beta2);
    this.eps = positive("epsilon", epsilon);
    if (!(initialV >= 0) || !Double.isFinite(initialV)) {
      throw new IllegalArgumentException("initial v must be >= 0, got " + initialV);
    }
    this.initial = initialV;
  }

  /** Yogi with beta1 0.9, beta2 0.999, epsilon 1e-3, initial v 1e-6. */
  public Yogi(double learningRate) {
    this(learningRate, 0.9, 0.999, 1e-3, 1e-6);
  }

  @Override
  public String name() {
    return "yogi";
  }

  @Override
  public Map<String, Double> hyperparameters() {
    return Map.of("learning_rate", lr, "beta1", beta1, "beta2", beta2, "epsilon", eps,
        "initial_v", initial);
  }

  @Override
  double initialSlotValue(int slot) {
    return slot == 1 ? initial : 0.0;
  }

  @Override
  void update(NdArray p, NdArray g, NdArray[] slots, long t) {
    NdArray m = slots[0];
    NdArray v = slots[1];
    double stepSize = lr * Math.sqrt(1 - Math.pow(beta2, t)) / (1 - Math.pow(beta1, t));
    for (int i = 0; i < p.size(); i++) {
      double gi = g.get(i);
      double g2 = gi * gi;
      double mi = beta1 * m.get(i) + (1 - beta1) * gi;
      double vOld = v.get(i);
      double vi = vOld - (1 - beta2) * Math.signum(vOld - g2) * g2;
      m.set(i, mi);
      v.set(i, vi);
      p.set(i, p.get(i) - stepSize * mi / (Math.sqrt(vi) + eps));
    }
  }
}
