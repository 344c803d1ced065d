package io.tributary.learning.serveropt;

import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * Server SGD with momentum (FedAvgM, Hsu et al. 2019, as Flower's FedAvgM writes it): with the
 * pseudo-gradient {@code g = -update}, the momentum is {@code g} in round 1 and {@code
 * momentum * m + g} after; the model becomes {@code model - lr * m}. With momentum 0 and
 * learning rate 1 this is FedAvg.
 *
 * @param learningRate Flower's {@code server_learning_rate} (default 1)
 * @param momentum Flower's {@code server_momentum} (default 0)
 */
public record ServerSgd(double learningRate, double momentum) implements ServerOptimizer {
  /**
   * Checks the hyperparameters.
   *
   * @throws IllegalArgumentException when the rate is not positive or the momentum not in [0, 1)
   */
  public ServerSgd {
    if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
      throw new IllegalArgumentException("server learning rate must be positive and finite, got "
          + learningRate);
    }
    if (!(momentum >= 0 && momentum < 1)) {
      throw new IllegalArgumentException("server momentum must be in [0, 1), got " + momentum);
    }
  }

  @Override
  public String name() {
    return momentum == 0 ? "fedavg" : "fedavgm";
  }

  @Override
  public List<Tensor> initialState(List<Tensor> model) {
    return momentum == 0 ? List.of() : Elementwise.zeros(model);
  }

  @Override
  public List<String> stateSlots() {
    return momentum == 0 ? List.of() : List.of("momentum");
  }

  /** Whether this is FedAvg's server step, the model plus the update. */
  public boolean isPlainAverage() {
    return learningRate == 1 && momentum == 0;
  }

  @Override
  public Step apply(int round, List<Tensor> model, List<Tensor> update, List<Tensor> state) {
    if (momentum == 0) {
      return new Step(Elementwise.map(model, v -> v[0] + learningRate * v[1],
          List.of(model, update)), List.of());
    }
    List<Tensor> m = round == 1 ? Elementwise.map(model, v -> -v[0], List.of(update))
        : Elementwise.map(model, v -> momentum * v[0] - v[1], List.of(state, update));
    return new Step(Elementwise.map(model, v -> v[0] - learningRate * v[1], List.of(model, m)),
        m);
  }
}
