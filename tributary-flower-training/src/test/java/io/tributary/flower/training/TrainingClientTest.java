package io.tributary.flower.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.TrainTestSplit;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TrainingClientTest {
  private static Model model;
  private static Dataset train;
  private static Dataset test;

  @BeforeAll
  static void data() {
    TrainTestSplit split = Digits.load(0.2, 1);
    train = split.train();
    test = split.test();
    model = Models.softmaxRegression("mclr", 64, 10, DType.FLOAT32);
  }

  private static TrainingClient client() throws Exception {
    return new TrainingClient(model, train, test, new TrainingSettings(1, 16, 0.05, 0, 3));
  }

  @Test
  void fit_digits_reducesTestLossAndReportsExamples() throws Exception {
    TrainingClient c = client();
    List<Tensor> initial = c.getParameters(Map.of());
    EvaluateRes before = c.evaluate(new EvaluateIns(initial, Map.of()));

    FitRes fit = c.fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L))));
    EvaluateRes after = c.evaluate(new EvaluateIns(fit.parameters(), Map.of()));

    assertThat(fit.numExamples()).isEqualTo(train.size());
    assertThat(fit.metrics()).containsKey("loss");
    assertThat(after.loss()).isLessThan(before.loss() * 0.5f);
    assertThat(after.numExamples()).isEqualTo(test.size());
    assertThat(after.metrics().get("accuracy").asDouble().orElseThrow()).isGreaterThan(0.8);
    assertThat(c.getParameters(Map.of())).isEqualTo(fit.parameters());
  }

  @Test
  void fit_configOverridesSettings_moreEpochsTrainFurther() throws Exception {
    List<Tensor> initial = client().getParameters(Map.of());
    FitRes one = client().fit(new FitIns(initial, Map.of("epochs", Scalar.of(1L),
        "lr", Scalar.of(0.01), "batch_size", Scalar.of(32L))));
    FitRes five = client().fit(new FitIns(initial, Map.of("epochs", Scalar.of(5L),
        "learning_rate", Scalar.of(0.01), "batch_size", Scalar.of(32L))));

    double l1 = one.metrics().get("loss").asDouble().orElseThrow();
    double l5 = five.metrics().get("loss").asDouble().orElseThrow();
    assertThat(l5).isLessThan(l1);
  }

  @Test
  void fit_clippingNorm_updateLeavesTheClientClippedToIt() throws Exception {
    List<Tensor> initial = client().getParameters(Map.of());
    FitRes plain = client().fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L))));
    FitRes clipped = client().fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L),
        "clipping_norm", Scalar.of(0.01))));
    FitRes wide = client().fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L),
        "clipping_norm", Scalar.of(1e6))));

    assertThat(Math.sqrt(distance(plain.parameters(), initial))).isGreaterThan(0.1);
    assertThat(Math.sqrt(distance(clipped.parameters(), initial))).isCloseTo(0.01,
        org.assertj.core.data.Offset.offset(1e-5));
    assertThat(wide.parameters()).isEqualTo(plain.parameters());
    assertThatThrownBy(() -> client().fit(new FitIns(initial, Map.of("clipping_norm",
        Scalar.of(-1.0))))).hasMessageContaining("clipping_norm");
  }

  @Test
  void fit_localNoiseStddev_addsFreshNoiseOfThatScaleToTheClippedUpdate() throws Exception {
    List<Tensor> initial = client().getParameters(Map.of());
    Map<String, Scalar> clip = Map.of("local_epochs", Scalar.of(1L), "clipping_norm",
        Scalar.of(0.01));
    Map<String, Scalar> noisy = Map.of("local_epochs", Scalar.of(1L), "clipping_norm",
        Scalar.of(0.01), "local_noise_stddev", Scalar.of(0.5));
    FitRes clipped = client().fit(new FitIns(initial, clip));
    FitRes a = client().fit(new FitIns(initial, noisy));
    FitRes b = client().fit(new FitIns(initial, noisy));

    long n = 0;
    for (Tensor t : initial) {
      n += t.shape().size();
    }
    // The noise's sample standard deviation over every parameter is near 0.5, and it is drawn
    // afresh each fit (a secure generator, never seeded).
    double sd = Math.sqrt(distance(a.parameters(), clipped.parameters()) / n);
    assertThat(sd).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.1));
    assertThat(a.parameters()).isNotEqualTo(b.parameters());
    assertThatThrownBy(() -> client().fit(new FitIns(initial, Map.of("local_noise_stddev",
        Scalar.of(0.5))))).hasMessageContaining("local_noise_stddev needs clipping_norm");
  }

  @Test
  void fit_proximalMu_keepsParametersCloserToTheGlobalModel() throws Exception {
    List<Tensor> initial = client().getParameters(Map.of());
    FitRes plain = client().fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L))));
    FitRes prox = client().fit(new FitIns(initial, Map.of("local_epochs", Scalar.of(3L),
        "proximal_mu", Scalar.of(1.0))));

    assertThat(distance(prox.parameters(), initial)).isLessThan(
        distance(plain.parameters(), initial));
  }

  private static double distance(List<Tensor> a, List<Tensor> b) {
    double s = 0;
    for (int t = 0; t < a.size(); t++) {
      for (long i = 0; i < a.get(t).shape().size(); i++) {
        double d = a.get(t).getAsDouble(i) - b.get(t).getAsDouble(i);
        s += d * d;
      }
    }
    return s;
  }

  @Test
  void getParameters_order_isKernelThenBiasPerLayer() throws Exception {
    TrainingClient c = client();
    assertThat(c.parameterNames()).containsExactly("dense/kernel", "dense/bias");
    assertThat(c.parameterNames()).isEqualTo(model.trainableNames());
    assertThat(c.getParameters(Map.of()).get(0).shape()).isEqualTo(Shape.of(64, 10));
  }

  @Test
  void fit_wrongShapesOrCountOrConfig_failWithTheReason() throws Exception {
    TrainingClient c = client();
    List<Tensor> good = c.getParameters(Map.of());
    List<Tensor> swapped = List.of(good.get(1), good.get(0));
    List<Tensor> ints = new ArrayList<>(good);
    ints.set(1, Tensor.ofLongs(Shape.of(10), new long[10]));

    assertThatThrownBy(() -> c.fit(new FitIns(good.subList(0, 1), Map.of())))
        .isInstanceOf(FlowerClientException.class).hasMessageContaining("2 parameter tensors");
    assertThatThrownBy(() -> c.fit(new FitIns(swapped, Map.of())))
        .hasMessageContaining("parameter 0 (dense/kernel)");
    assertThatThrownBy(() -> c.evaluate(new EvaluateIns(ints, Map.of())))
        .hasMessageContaining("parameter 1 (dense/bias)").hasMessageContaining("int64");
    assertThatThrownBy(() -> c.fit(new FitIns(good, Map.of("local_epochs", Scalar.of("3")))))
        .hasMessageContaining("local_epochs");
    assertThatThrownBy(() -> c.fit(new FitIns(good, Map.of("lr", Scalar.of(-1.0)))))
        .hasMessageContaining("'lr'");
  }

  @Test
  void evaluate_float64Model_castToTheModelsFloat32AsFedAdamSendsIt() throws Exception {
    TrainingClient c = client();
    List<Tensor> good = c.getParameters(Map.of());
    List<Tensor> float64 = new ArrayList<>();
    for (Tensor t : good) {
      double[] v = new double[(int) t.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getAsDouble(i);
      }
      float64.add(Tensor.ofDoubles(t.shape(), v));
    }

    EvaluateRes asFloat32 = c.evaluate(new EvaluateIns(good, Map.of()));
    EvaluateRes asFloat64 = c.evaluate(new EvaluateIns(float64, Map.of()));
    FitRes trained = c.fit(new FitIns(float64, Map.of()));

    assertThat(asFloat64.loss()).isEqualTo(asFloat32.loss());
    assertThat(trained.parameters().get(0).dtype()).isEqualTo(DType.FLOAT32);
  }

  @Test
  void fitAndEvaluate_nonFiniteModel_refusedNamingTheParameter() throws Exception {
    TrainingClient c = client();
    List<Tensor> good = c.getParameters(Map.of());
    for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY}) {
      float[] bias = new float[10];
      bias[3] = bad;
      List<Tensor> poisoned = List.of(good.get(0), Tensor.ofFloats(Shape.of(10), bias));

      assertThatThrownBy(() -> c.fit(new FitIns(poisoned, Map.of())))
          .isInstanceOf(FlowerClientException.class)
          .hasMessageContaining("parameter 1 (dense/bias)").hasMessageContaining("element 3")
          .hasMessageContaining("finite");
      assertThatThrownBy(() -> c.evaluate(new EvaluateIns(poisoned, Map.of())))
          .isInstanceOf(FlowerClientException.class).hasMessageContaining("finite");
    }
    // a float64 value beyond float32's range is not finite once cast
    List<Tensor> huge = List.of(good.get(0), Tensor.ofDoubles(Shape.of(10), new double[] {
        1e300, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    assertThatThrownBy(() -> c.evaluate(new EvaluateIns(huge, Map.of())))
        .hasMessageContaining("finite");
  }
}
