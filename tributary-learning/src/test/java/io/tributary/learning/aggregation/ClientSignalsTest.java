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
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a round reads from each client, as the aggregator declares it. */
class ClientSignalsTest {
  private static final StructType MODEL = StructType.of(TensorType.of(DType.FLOAT32));
  private static final FederatedType COUNTS =
      new FederatedType(TensorType.of(DType.INT64), Placement.CLIENTS, false);

  @Test
  void clientSignals_weightedMean_weightAndLossOnly() {
    ClientSignals s = new WeightedMean().create(MODEL).clientSignals();

    assertThat(s).isEqualTo(ClientSignals.DEFAULT);
    assertThat(s.contains(ClientSignal.NORM_BIT)).isFalse();
    assertThat(s.updateType(MODEL).toString()).isEqualTo("<delta=<float32>,num_examples=int64,"
        + "loss=float32,loss_weight=float32>");
  }

  @Test
  void clientSignals_qFedAvg_declaredLossIsTheDefaultSet() {
    assertThat(new QFedAvg(0.2, 0.1).create(MODEL).clientSignals())
        .isEqualTo(ClientSignals.DEFAULT);
  }

  @Test
  void updateType_normBitDeclared_carriesItLast() {
    AggregationProcess p = AggregationProcess.stateless(Federated.computation(
        StructType.of(new FederatedType(MODEL, Placement.CLIENTS, false), COUNTS, COUNTS),
        a -> Intrinsics.federatedWeightedMean(a.get(0), a.get(1))), ClientSignal.NORM_BIT);

    ClientSignals s = p.clientSignals();

    assertThat(s.contains(ClientSignal.NORM_BIT)).isTrue();
    assertThat(s.updateType(MODEL).toString()).isEqualTo("<delta=<float32>,num_examples=int64,"
        + "loss=float32,loss_weight=float32,norm_bit=int64>");
  }

  @Test
  void new_withoutLoss_refusedNamingBoth() {
    assertThatThrownBy(() -> new ClientSignals(EnumSet.of(ClientSignal.WEIGHT)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("WEIGHT and LOSS");
  }

  @Test
  void new_weightAsExtraSignal_refused() {
    assertThatThrownBy(() -> new AggregationProcess(Optional.empty(), Federated.computation(
        StructType.of(new FederatedType(MODEL, Placement.CLIENTS, false), COUNTS, COUNTS),
        a -> Intrinsics.federatedWeightedMean(a.get(0), a.get(1))),
        Optional.of(ClientSignal.WEIGHT)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("every aggregation's weights");
  }
}
