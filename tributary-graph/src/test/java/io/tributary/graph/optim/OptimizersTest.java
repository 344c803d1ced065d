package io.tributary.graph.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each optimizer takes two steps on w = [1.0, -2.0] with gradients g1 = [0.5, -1.0] then
 * g2 = [-0.25, 2.0]; the expected values are worked out by hand in the comments (float64).
 */
class OptimizersTest {
  static final double[] W = {1.0, -2.0};
  static final double[] G1 = {0.5, -1.0};
  static final double[] G2 = {-0.25, 2.0};

  static Stream<Arguments> rules() {
    // SGD lr 0.1: w1 = w - 0.1 g1 = [0.95, -1.9]; w2 = w1 - 0.1 g2 = [0.975, -2.1].
    double[] sgd = {0.975, -2.1};
    // Momentum lr 0.1 mu 0.9: v1 = g1; w1 = [0.95, -1.9]; v2 = 0.9 g1 + g2 = [0.2, 1.1];
    // w2 = w1 - 0.1 v2 = [0.93, -2.01].
    double[] momentum = {0.93, -2.01};
    // Nesterov: w1 = w - 0.1 (g1 + 0.9 g1) = [0.905, -1.81]; v2 = [0.2, 1.1];
    // w2 = w1 - 0.1 (g2 + 0.9 v2) = [0.905 - 0.1 (-0.25 + 0.18), -1.81 - 0.1 (2 + 0.99)]
    double[] nesterov = {0.905 + 0.007, -1.81 - 0.299};
    return Stream.of(
        Arguments.of("sgd", new Sgd(0.1), sgd),
        Arguments.of("momentum", new Momentum(0.1, 0.9), momentum),
        Arguments.of("nesterov", new Momentum(0.1, 0.9, true), nesterov),
        Arguments.of("adam", new Adam(0.1, 0.9, 0.999, 1e-7), adam()),
        Arguments.of("adagrad", new Adagrad(0.1, 0.1, 1e-7), adagrad()),
        Arguments.of("yogi", new Yogi(0.1, 0.9, 0.999, 1e-3, 1e-6), yogi()));
  }

  /** Adam written out step by step, independently of the implementation's loop. */
  static double[] adam() {
    double[] out = new double[2];
    for (int i = 0; i < 2; i++) {
      double m1 = 0.1 * G1[i];
      double v1 = 0.001 * G1[i] * G1[i];
      double lr1 = 0.1 * Math.sqrt(1 - 0.999) / (1 - 0.9);
      double w1 = W[i] - lr1 * m1 / (Math.sqrt(v1) + 1e-7);
      double m2 = 0.9 * m1 + 0.1 * G2[i];
      double v2 = 0.999 * v1 + 0.001 * G2[i] * G2[i];
      double lr2 = 0.1 * Math.sqrt(1 - 0.999 * 0.999) / (1 - 0.81);
      out[i] = w1 - lr2 * m2 / (Math.sqrt(v2) + 1e-7);
    }
    return out;
  }

  static double[] adagrad() {
    // v1 = 0.1 + g1^2; w1 = w - 0.1 g1 / sqrt(v1); v2 = v1 + g2^2; w2 = w1 - 0.1 g2 / sqrt(v2).
    double[] out = new double[2];
    for (int i = 0; i < 2; i++) {
      double v1 = 0.1 + G1[i] * G1[i];
      double w1 = W[i] - 0.1 * G1[i] / (Math.sqrt(v1) + 1e-7);
      double v2 = v1 + G2[i] * G2[i];
      out[i] = w1 - 0.1 * G2[i] / (Math.sqrt(v2) + 1e-7);
    }
    return out;
  }

  static double[] yogi() {
    // v starts at 1e-6 < g^2, so sign(v - g^2) = -1 and v grows by 0.001 g^2 each step.
    double[] out = new double[2];
    for (int i = 0; i < 2; i++) {
      double m1 = 0.1 * G1[i];
      double v1 = 1e-6 + 0.001 * G1[i] * G1[i];
      double w1 = W[i] - 0.1 * Math.sqrt(0.001) / 0.1 * m1 / (Math.sqrt(v1) + 1e-3);
      double m2 = 0.9 * m1 + 0.1 * G2[i];
      double s = Math.signum(v1 - G2[i] * G2[i]);
      double v2 = v1 - 0.001 * s * G2[i] * G2[i];
      out[i] = w1 - 0.1 * Math.sqrt(1 - 0.999 * 0.999) / (1 - 0.81) * m2 / (Math.sqrt(v2) + 1e-3);
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void step_twoSteps_matchesHandComputed(String name, Optimizer opt, double[] expected) {
    Map<String, NdArray> params = Map.of("w", NdArray.wrapDoubles(new int[] {2}, W.clone()));
    OptimizerState state = opt.init(params);
    opt.step(params, Map.of("w", NdArray.wrapDoubles(new int[] {2}, G1.clone())), state);
    opt.step(params, Map.of("w", NdArray.wrapDoubles(new int[] {2}, G2.clone())), state);
    assertThat(state.step()).isEqualTo(2);
    assertThat(params.get("w").doubles()).containsExactly(expected, within(1e-12));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void state_roundTripsThroughTensors_continuesIdentically(String name, Optimizer opt,
      double[] expected) {
    Map<String, NdArray> params = Map.of("w", NdArray.wrapDoubles(new int[] {2}, W.clone()));
    OptimizerState state = opt.init(params);
    opt.step(params, Map.of("w", NdArray.wrapDoubles(new int[] {2}, G1.clone())), state);
    OptimizerState restored = OptimizerState.fromTensors(opt.slotNames(), state.step(),
        state.toTensors());
    assertThat(restored.toTensors()).isEqualTo(state.toTensors());
    Map<String, Tensor> w2 = opt.apply(Map.of("w", params.get("w").toTensor()),
        Map.of("w", Tensor.ofDoubles(Shape.of(2), G2)), restored);
    assertThat(w2.get("w").toDoubleArray()).containsExactly(expected, within(1e-12));
  }

  @Test
  void slotNames_adam_areMandV() {
    assertThat(new Adam(0.01).slotNames()).isEqualTo(List.of("m", "v"));
    assertThat(new Yogi(0.01).slotNames()).isEqualTo(List.of("m", "v"));
    assertThat(new Sgd(0.01).slotNames()).isEmpty();
  }

  @Test
  void step_gradientShapeDiffers_throwsNamingParameter() {
    Optimizer opt = new Adam(0.1);
    Map<String, NdArray> params = Map.of("dense/kernel", NdArray.zeros(
        io.tributary.tensor.DType.FLOAT32, 2, 3));
    OptimizerState s = opt.init(params);
    assertThatThrownBy(() -> opt.step(params, Map.of("dense/kernel",
        NdArray.zeros(io.tributary.tensor.DType.FLOAT32, 3, 2)), s))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dense/kernel");
    assertThatThrownBy(() -> opt.step(params, Map.of(), s))
        .hasMessageContaining("no gradient for parameter 'dense/kernel'");
  }

  @Test
  void constructor_badHyperparameters_throw() {
    assertThatThrownBy(() -> new Sgd(0)).hasMessageContaining("learning rate");
    assertThatThrownBy(() -> new Adam(0.1, 1.0, 0.999, 1e-7)).hasMessageContaining("beta1");
    assertThatThrownBy(() -> new Momentum(0.1, -0.1)).hasMessageContaining("momentum");
  }

  @Test
  void countAppliedStep_sgd_countsTheStepLikeStep() {
    Sgd sgd = new Sgd(0.1);
    Map<String, NdArray> params = Map.of("w", NdArray.zeros(io.tributary.tensor.DType.FLOAT32, 2));
    OptimizerState s = sgd.init(params);
    sgd.countAppliedStep(s);
    sgd.countAppliedStep(s);
    assertThat(s.step()).isEqualTo(2);
    assertThat(sgd.learningRate()).isEqualTo(0.1);
  }

  @Test
  void countAppliedStep_stateOfAnotherOptimizer_throwsNamingSlots() {
    OptimizerState adamState = new Adam(0.1).init(Map.of("w",
        NdArray.zeros(io.tributary.tensor.DType.FLOAT32, 2)));
    assertThatThrownBy(() -> new Sgd(0.1).countAppliedStep(adamState))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sgd needs slots []");
  }
}
