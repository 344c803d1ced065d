package io.tributary.learning.serveropt;

import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * FedAdam, FedYogi and FedAdagrad (Reddi et al. 2021), as Flower's strategies compute them. With
 * the update {@code d}: {@code m = beta1 m + (1 - beta1) d}; the second moment {@code v} is
 * {@code beta2 v + (1 - beta2) d^2} (Adam), {@code v - (1 - beta2) d^2 sign(v - d^2)} (Yogi) or
 * {@code v + d^2} (Adagrad); the model becomes {@code model + eta' m / (sqrt(v) + tau)}, where
 * {@code eta'} is {@code eta} except for Adam, which corrects the bias as Flower does, with the
 * round counted from 1: {@code eta sqrt(1 - beta2^(round+1)) / (1 - beta1^(round+1))}. The state
 * is m's layers then v's.
 *
 * @param kind which of the three
 * @param eta the server learning rate
 * @param beta1 the first moment's decay (Adagrad: Flower's 0)
 * @param beta2 the second moment's decay (unused by Adagrad)
 * @param tau the adaptivity constant added to sqrt(v)
 */
public record AdaptiveServerOptimizer(Kind kind, double eta, double beta1, double beta2,
    double tau) implements ServerOptimizer {
  /** The second-moment rule. */
  public enum Kind {
    /** FedAdam. */
    ADAM,
    /** FedYogi. */
    YOGI,
    /** FedAdagrad. */
    ADAGRAD
  }

  /**
   * Checks the hyperparameters.
   *
   * @throws IllegalArgumentException naming the first out of range
   */
  public AdaptiveServerOptimizer {
    if (!(eta > 0) || Double.isInfinite(eta)) {
      throw new IllegalArgumentException("eta must be positive and finite, got " + eta);
    }
    if (!(beta1 >= 0 && beta1 < 1)) {
      throw new IllegalArgumentException("beta_1 must be in [0, 1), got " + beta1);
    }
    if (!(beta2 >= 0 && beta2 < 1)) {
      throw new IllegalArgumentException("beta_2 must be in [0, 1), got " + beta2);
    }
    if (!(tau > 0) || Double.isInfinite(tau)) {
      throw new IllegalArgumentException("tau must be positive and finite, got " + tau);
    }
  }

  /** FedAdam with Flower's defaults: eta 0.1, beta_1 0.9, beta_2 0.99, tau 1e-9. */
  public static AdaptiveServerOptimizer fedAdam() {
    return new AdaptiveServerOptimizer(Kind.ADAM, 0.1, 0.9, 0.99, 1e-9);
  }

  /** FedYogi with Flower's defaults: eta 0.01, beta_1 0.9, beta_2 0.99, tau 1e-3. */
  public static AdaptiveServerOptimizer fedYogi() {
    return new AdaptiveServerOptimizer(Kind.YOGI, 0.01, 0.9, 0.99, 1e-3);
  }

  /** FedAdagrad with Flower's defaults: eta 0.1, tau 1e-9 (beta_1 0). */
  public static AdaptiveServerOptimizer fedAdagrad() {
    return new AdaptiveServerOptimizer(Kind.ADAGRAD, 0.1, 0, 0, 1e-9);
  }

  @Override
  public String name() {
    return switch (kind) {
      case ADAM -> "fedadam";
      case YOGI -> "fedyogi";
      case ADAGRAD -> "fedadagrad";
    };
  }

  @Override
  public List<Tensor> initialState(List<Tensor> model) {
    List<Tensor> s = new ArrayList<>(Elementwise.zeros(model));
    s.addAll(Elementwise.zeros(model));
    return s;
  }

  @Override
  public List<String> stateSlots() {
    return List.of("m", "v");
  }

  @Override
  public Step apply(int round, List<Tensor> model, List<Tensor> update, List<Tensor> state) {
    int n = model.size();
    if (state.size() != 2 * n) {
      throw new IllegalArgumentException(name() + " state has " + state.size()
          + " tensors, expected " + 2 * n);
    }
    List<Tensor> m0 = state.subList(0, n);
    List<Tensor> v0 = state.subList(n, 2 * n);
    List<Tensor> m = Elementwise.map(model, v -> beta1 * v[0] + (1 - beta1) * v[1],
        List.of(m0, update));
    List<Tensor> v = Elementwise.map(model, x -> switch (kind) {
      case ADAM -> beta2 * x[0] + (1 - beta2) * x[1] * x[1];
      case YOGI -> x[0] - (1 - beta2) * x[1] * x[1] * Math.signum(x[0] - x[1] * x[1]);
      case ADAGRAD -> x[0] + x[1] * x[1];
    }, List.of(v0, update));
    double step = kind == Kind.ADAM
        ? eta * Math.sqrt(1 - Math.pow(beta2, round + 1.0)) / (1 - Math.pow(beta1, round + 1.0))
        : eta;
    List<Tensor> next = Elementwise.map(model, x -> x[0] + step * x[1] / (Math.sqrt(x[2]) + tau),
        List.of(model, m, v));
    List<Tensor> s = new ArrayList<>(m);
    s.addAll(v);
    return new Step(next, s);
  }
}
