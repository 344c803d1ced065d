package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.FederatedLearning;
import io.tributary.learning.aggregation.ClientSignal;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The printed types of the server's computations, as docs/flower.md shows them. */
class RemoteClientWorkTypesTest {
  static final String M = "<float32[2],float32>";

  @Test
  void types_serverComputations_printAsDocumented() {
    ModelSpec spec = ModelSpec.of(List.of(Tensor.ofFloats(Shape.of(2), 0, 0), Tensor.scalar(1f)));
    RemoteClientWork work = new RemoteClientWork(new ClientManager(),
        new ParameterCodec(null, spec), Optional.empty(),
        FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT, ClientSignals.DEFAULT);
    assertThat(work.fit().type().toString()).isEqualTo("(<model=" + M
        + ",data=string> -> <delta=" + M + ",num_examples=int64,loss=float32,"
        + "loss_weight=float32>)");
    assertThat(work.evaluation().type().toString()).isEqualTo("(<model=" + M
        + ",data=string> -> <loss=float32,num_examples=int64>)");
    assertThat(FederatedLearning.next(work.fit()).type().toString()).isEqualTo(
        "(<<model=" + M + ">@SERVER,{string}@CLIENTS> -> <<model=" + M + ">@SERVER,"
            + "<train_loss=float32,num_examples=int64,clients=int64>@SERVER>)");
    assertThat(FederatedLearning.evaluate(work.evaluation()).type().toString()).isEqualTo(
        "(<" + M + "@SERVER,{string}@CLIENTS> -> <loss=float32,num_examples=int64>@SERVER)");
  }

  @Test
  void fit_aggregatorDeclaresNormBit_updateCarriesIt() {
    ModelSpec spec = ModelSpec.of(List.of(Tensor.ofFloats(Shape.of(2), 0, 0), Tensor.scalar(1f)));
    RemoteClientWork work = new RemoteClientWork(new ClientManager(),
        new ParameterCodec(null, spec), Optional.empty(),
        FederatedLearning.DEFAULT_MAX_EXAMPLES_PER_CLIENT,
        ClientSignals.DEFAULT.with(ClientSignal.NORM_BIT));

    assertThat(work.fit().type().result().toString()).isEqualTo("<delta=" + M
        + ",num_examples=int64,loss=float32,loss_weight=float32,norm_bit=int64>");
  }

  @Test
  void of_integerParameter_refusedNamingIt() {
    assertThatThrownBy(() -> ModelSpec.of(List.of(Tensor.ofLongs(Shape.of(1), 3))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initial parameter 0 is int64");
  }
}
