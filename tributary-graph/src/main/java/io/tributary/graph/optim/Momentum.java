package io.tributary.graph.optim;

import io.tributary.graph.ops.NdArray;
import java.util.Map;

/**
 * SGD with momentum: {@code v = mu * v + g; w -= lr * v}, or with Nesterov's correction {@code
 * w -= lr * (g + mu * v)}. Slot: {@code momentum}.
 */
public final class Momentum extends ElementwiseOptimizer {
  private final double lr;
  private final double mu;
  private final boolean nesterov;

  public Momentum(double learningRate, double momentum, boolean nesterov) {
    super("momentum");
    this.lr = positive("learning rate", learningRate);
    this.mu = unitInterval("momentum", momentum);
    this.nesterov = nesterov;
  }

  public Momentum(double learningRate, double momentum) {
    this(learningRate, momentum, false);
  }

  @Override
  public String name() {
    return "momentum";
  }

  @Override
  public Map<String, Double> hyperparameters() {
    return Map.of("learning_rate", lr, "momentum", mu, "nesterov", nesterov ? 1.0 : 0.0);
  }

  @Override
  void update(NdArray p, NdArray g, NdArray[] slots, long t) {
    NdArray v = slots[0];
    for (int i = 0; i < p.size(); i++) {
      double gi = g.get(i);
      double vi = mu * v.get(i) + gi;
      v.set(i, vi);
      p.set(i, p.get(i) - lr * (nesterov ? gi + mu * vi : vi));
    }
  }
}
