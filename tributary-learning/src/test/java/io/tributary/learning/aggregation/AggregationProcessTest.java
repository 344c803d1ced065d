package io.tributary.learning.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FederatedType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.tensor.DType;
import org.junit.jupiter.api.Test;

/** An aggregation's inline form and the aggregators' declared weighted mean. */
class AggregationProcessTest {
  private static final StructType MODEL = StructType.of(TensorType.of(DType.FLOAT32));

  @Test
  void create_weightedMean_isInlinedAndDeclaresItselfAWeightedMean() {
    AggregationProcess p = new WeightedMean().create(MODEL);

    assertThat(p.inline()).isPresent();
    assertThat(new WeightedMean().weightedMean()).isTrue();
  }

  @Test
  void weightedMean_otherAggregators_falseUnlessDeclared() {
    assertThat(new UnweightedMean().weightedMean()).isFalse();
    Aggregator own = new Aggregator() {
      @Override
      public String name() {
        return "my_mean";
      }

      @Override
      public AggregationProcess create(StructType model) {
        return new WeightedMean().create(model);
      }

      @Override
      public boolean weightedMean() {
        return true;
      }
    };
    assertThat(own.weightedMean()).isTrue();
  }

  @Test
  void inlined_statefulAggregation_refused() {
    AggregationProcess plain = new WeightedMean().create(MODEL);
    AggregationProcess stateful = AggregationProcess.stateful(
        Federated.computation(() -> Intrinsics.federatedValue(
            Federated.constant(io.tributary.tensor.Tensor.scalar(0f)), Placement.SERVER)),
        Federated.computation(StructType.of(
            new FederatedType(TensorType.of(DType.FLOAT32), Placement.SERVER, true),
            new FederatedType(MODEL, Placement.CLIENTS, false),
            new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false)),
            a -> Federated.struct(a.get(0), Intrinsics.federatedWeightedMean(a.get(1),
                a.get(2)))));

    assertThatThrownBy(() -> stateful.inlined(plain.inline().get()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stateless");
  }
}
