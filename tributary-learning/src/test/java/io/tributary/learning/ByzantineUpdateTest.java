package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Byzantine clients' attacked updates. */
class ByzantineUpdateTest {
  private static final TensorType VECTOR = TensorType.of(DType.FLOAT32, 3);
  private static final StructType MODEL = StructType.named("w", VECTOR);
  private static final StructType RESULT = StructType.named("delta", MODEL, "num_examples",
      TensorType.of(DType.INT64), "loss", TensorType.of(DType.FLOAT32));

  /** A client update whose delta is its model plus its data, 7 examples, loss 0.5. */
  private static Computation fakeUpdate() {
    return Federated.local("fake_update", FunctionType.of(StructType.named("model", MODEL,
        "data", VECTOR), RESULT), x -> {
          StructValue a = (StructValue) x;
          Tensor w = a.struct(0).tensor(0);
          Tensor d = a.tensor(1);
          float[] sum = new float[3];
          for (int i = 0; i < 3; i++) {
            sum[i] = w.getFloat(i) + d.getFloat(i);
          }
          return StructValue.named("delta", StructValue.named("w",
              Tensor.ofFloats(Shape.of(3), sum)), "num_examples",
              Tensor.ofLongs(Shape.scalar(), 7), "loss", Tensor.scalar(0.5f));
        });
  }

  private static StructValue model(float... w) {
    return StructValue.named("w", Tensor.ofFloats(Shape.of(3), w));
  }

  @Test
  void attacked_scaleMinusTen_everyElementTimesMinusTen() {
    List<Tensor> delta = List.of(Tensor.ofFloats(Shape.of(3), 1f, -2f, 0.25f),
        Tensor.ofFloats(Shape.of(1), 3f));

    List<Tensor> out = ByzantineUpdate.attacked(delta, -10, 0, 99);

    assertThat(out).containsExactly(Tensor.ofFloats(Shape.of(3), -10f, 20f, -2.5f),
        Tensor.ofFloats(Shape.of(1), -30f));
  }

  @Test
  void attacked_scaleMinusOne_negatesTheDelta() {
    List<Tensor> delta = List.of(Tensor.ofFloats(Shape.of(3), 1f, -2f, 0f));

    assertThat(ByzantineUpdate.attacked(delta, -1, 0, 1))
        .containsExactly(Tensor.ofFloats(Shape.of(3), -1f, 2f, -0f));
  }

  @Test
  void attacked_noiseWithScaleZero_seededGaussianOfSigmaIgnoringTheDelta() {
    int n = 20_000;
    float[] fives = new float[n];
    Arrays.fill(fives, 5f);
    List<Tensor> delta = List.of(Tensor.ofFloats(Shape.of(n), fives));
    List<Tensor> other = List.of(Tensor.zeros(DType.FLOAT32, Shape.of(n)));

    Tensor a = ByzantineUpdate.attacked(delta, 0, 2, 42).get(0);
    Tensor again = ByzantineUpdate.attacked(other, 0, 2, 42).get(0);
    Tensor b = ByzantineUpdate.attacked(delta, 0, 2, 43).get(0);

    assertThat(again).isEqualTo(a);
    assertThat(b).isNotEqualTo(a);
    double sum = 0;
    double squares = 0;
    for (int i = 0; i < n; i++) {
      sum += a.getAsDouble(i);
      squares += a.getAsDouble(i) * a.getAsDouble(i);
    }
    double mean = sum / n;
    assertThat(mean).isBetween(-0.05, 0.05);
    assertThat(Math.sqrt(squares / n - mean * mean)).isBetween(1.95, 2.05);
  }

  @Test
  void attack_negativeSigma_isRefused() {
    assertThatThrownBy(() -> ByzantineUpdate.attack(1, -1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sigma");
  }

  @Test
  void wrap_attackedClient_deltaScaledCountAndLossKept() {
    Computation wrapped = ByzantineUpdate.wrap(fakeUpdate());
    StructValue data = ByzantineUpdate.clientData(Tensor.ofFloats(Shape.of(3), 1f, 1f, 1f),
        ByzantineUpdate.attack(-10, 0, 5));

    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(wrapped,
          StructValue.named("model", model(1f, 2f, 3f), "data", data));

      assertThat(out.get("delta")).isEqualTo(model(-20f, -30f, -40f));
      assertThat(out.tensor(1).longItem()).isEqualTo(7);
      assertThat(out.tensor(2).floatItem()).isEqualTo(0.5f);
    }
  }

  @Test
  void wrap_honestClient_updateUnchanged() {
    Computation wrapped = ByzantineUpdate.wrap(fakeUpdate());
    StructValue data = ByzantineUpdate.clientData(Tensor.ofFloats(Shape.of(3), 1f, 1f, 1f),
        ByzantineUpdate.honest());

    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      StructValue out = (StructValue) ctx.invoke(wrapped,
          StructValue.named("model", model(1f, 2f, 3f), "data", data));

      assertThat(out.get("delta")).isEqualTo(model(2f, 3f, 4f));
    }
  }

  @Test
  void wrap_notAClientUpdate_isRefused() {
    Computation notUpdate = Federated.local("f", FunctionType.of(VECTOR, VECTOR), x -> x);

    assertThatThrownBy(() -> ByzantineUpdate.wrap(notUpdate))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
