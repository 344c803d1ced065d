package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static io.tributary.runtime.TestValues.f32v;
import static io.tributary.runtime.TestValues.f64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Client values are checked, not trusted: non-finite values and weights above the bound are
 * refused per client, and an aggregate that overflows is refused as a whole.
 */
class UntrustedValuesTest {
  private static final RuntimeOptions TOLERANT = RuntimeOptions.defaults().withThreads(2)
      .withMinSuccessFraction(0.1);

  /** Each client's value passes through a Java function, so the streaming path runs. */
  private static Computation weightedMeanOf(String valueType) {
    Computation id = Federated.local("id", "(" + valueType + " -> " + valueType + ")", x -> x);
    return Federated.computation(Types.parse("{" + valueType + "}@CLIENTS"),
        Types.parse("{int64}@CLIENTS"),
        (x, w) -> Intrinsics.federatedWeightedMean(Intrinsics.federatedMap(id, x), w));
  }

  private static Computation inMemoryWeightedMean(String valueType) {
    return Federated.computation(Types.parse("{" + valueType + "}@CLIENTS"),
        Types.parse("{int64}@CLIENTS"), Intrinsics::federatedWeightedMean);
  }

  private static Tensor i64(long v) {
    return Tensor.ofLongs(Shape.scalar(), v);
  }

  private static List<Object> weights(long... w) {
    List<Object> out = new ArrayList<>();
    for (long x : w) {
      out.add(i64(x));
    }
    return out;
  }

  @Test
  void weightedMean_clientSendsNaN_isExcludedAndNamed() {
    List<Object> values = List.of(f32v(1, 2), f32v(Float.NaN, 0), f32v(3, 4),
        f32v(0, Float.POSITIVE_INFINITY), f32v(Float.NEGATIVE_INFINITY, 1));
    for (Computation c : List.of(weightedMeanOf("float32[2]"),
        inMemoryWeightedMean("float32[2]"))) {
      try (ExecutionContext ctx = ExecutionContext.create(TOLERANT)) {
        Outcome out = ctx.invokeWithReport(c, values, weights(1, 1, 1, 1, 1));
        assertThat(out.value()).isEqualTo(f32v(2, 3));
        assertThat(out.report().failedClients()).containsExactly(1, 3, 4);
        assertThat(out.report().failures()).allSatisfy(f -> {
          assertThat(f.kind()).isEqualTo(ClientFailure.Kind.BAD_VALUE);
          assertThat(f.intrinsic()).isEqualTo("federated_weighted_mean");
        });
        assertThat(out.report().failures().get(0).describe())
            .contains("client 1").contains("not finite").contains("NaN at element 0");
        assertThat(out.report().failures().get(1).describe()).contains("+Inf at element 1");
        assertThat(out.report().failures().get(2).describe()).contains("-Inf at element 0");
      }
    }
  }

  @Test
  void weightedMean_nonFiniteUnderStrictOptions_failsNamingTheClient() {
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults())) {
      assertThatThrownBy(() -> ctx.invoke(weightedMeanOf("float32"),
          List.of(f32(1), f32(Float.NaN)), weights(1, 1)))
          .isInstanceOfSatisfying(ClientFailureException.class,
              e -> assertThat(e.client()).isEqualTo(1))
          .hasMessageContaining("not finite");
    }
  }

  @Test
  void sumAndMean_nonFiniteValue_isExcluded() {
    Computation sum = Federated.computation(Types.parse("{float64}@CLIENTS"),
        Intrinsics::federatedSum);
    Computation mean = Federated.computation(Types.parse("{float64}@CLIENTS"),
        Intrinsics::federatedMean);
    try (ExecutionContext ctx = ExecutionContext.create(TOLERANT)) {
      List<Object> v = List.of(f64(1), f64(Double.NaN), f64(3));
      assertThat(ctx.invokeWithReport(sum, v).value()).isEqualTo(f64(4));
      Outcome m = ctx.invokeWithReport(mean, v);
      assertThat(m.value()).isEqualTo(f64(2));
      assertThat(m.report().failedClients()).containsExactly(1);
    }
  }

  @Test
  void weightedMean_finiteValuesThatOverflow_isRefusedNotReturned() {
    List<Object> values = List.of(f64(Double.MAX_VALUE), f64(Double.MAX_VALUE));
    for (Computation c : List.of(weightedMeanOf("float64"), inMemoryWeightedMean("float64"))) {
      try (ExecutionContext ctx = ExecutionContext.create(TOLERANT)) {
        assertThatThrownBy(() -> ctx.invoke(c, values, weights(1, 1)))
            .isInstanceOf(LocalComputationException.class)
            .hasMessageContaining("federated_weighted_mean")
            .hasMessageContaining("overflows");
      }
    }
  }

  @Test
  void weightedMean_weightAboveBoundWithClip_countsAsTheBound() {
    RuntimeOptions options = TOLERANT.withMaxWeight(10, RuntimeOptions.WeightPolicy.CLIP);
    for (Computation c : List.of(weightedMeanOf("float32"), inMemoryWeightedMean("float32"))) {
      try (ExecutionContext ctx = ExecutionContext.create(options)) {
        // Weights 10 (clipped from Long.MAX_VALUE) and 10: the plain mean of 0 and 4.
        Outcome out = ctx.invokeWithReport(c, List.of(f32(0), f32(4)),
            weights(Long.MAX_VALUE, 10));
        assertThat(out.value()).isEqualTo(f32(2));
        assertThat(out.report().failures()).isEmpty();
      }
    }
  }

  @Test
  void weightedMean_weightAboveBoundWithExclude_failsTheClient() {
    RuntimeOptions options = TOLERANT.withMaxWeight(10, RuntimeOptions.WeightPolicy.EXCLUDE);
    for (Computation c : List.of(weightedMeanOf("float32"), inMemoryWeightedMean("float32"))) {
      try (ExecutionContext ctx = ExecutionContext.create(options)) {
        Outcome out = ctx.invokeWithReport(c, List.of(f32(0), f32(4), f32(8)),
            weights(Long.MAX_VALUE, 10, 10));
        assertThat(out.value()).isEqualTo(f32(6));
        assertThat(out.report().failures()).singleElement().satisfies(f -> {
          assertThat(f.client()).isZero();
          assertThat(f.describe()).contains("the weight 9223372036854775807 is above the bound 10");
        });
      }
    }
  }

  @Test
  void weightedMean_manyHugeWeights_sumWithoutOverflow() {
    // Weights summed as int64 would wrap; the runtime sums them in double.
    try (ExecutionContext ctx = ExecutionContext.create(TOLERANT)) {
      Object v = ctx.invoke(weightedMeanOf("float32"), List.of(f32(2), f32(2), f32(2)),
          weights(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
      assertThat(v).isEqualTo(f32(2));
    }
  }

  @Test
  void structValue_nonFiniteInSecondTensor_namesTheTensor() {
    Computation c = weightedMeanOf("<float32,float32[2]>");
    try (ExecutionContext ctx = ExecutionContext.create(TOLERANT)) {
      Outcome out = ctx.invokeWithReport(c,
          List.of(StructValue.of(f32(1), f32v(1, 1)), StructValue.of(f32(1), f32v(1, Float.NaN))),
          weights(1, 1));
      assertThat(out.report().failures()).singleElement()
          .satisfies(f -> assertThat(f.message()).contains("tensor 1").contains("element 1"));
    }
  }

  @Test
  void options_nonPositiveMaxWeight_isRefused() {
    assertThatThrownBy(() -> RuntimeOptions.defaults()
        .withMaxWeight(0, RuntimeOptions.WeightPolicy.CLIP))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxWeight");
  }
}
