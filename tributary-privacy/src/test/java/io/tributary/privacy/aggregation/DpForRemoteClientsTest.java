package io.tributary.privacy.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;

import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.ClientClipping;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** DP for a server's remote clients: what the server aggregates and what the clients are told. */
class DpForRemoteClientsTest {
  private static DpSettings client(double localNoise, boolean adaptive) {
    return new DpSettings(DpMode.CLIENT, 1.0, 0.5, adaptive ? Optional.of(
        new DpSettings.Adaptive(0.5, 0.2, OptionalDouble.of(5))) : Optional.empty(), localNoise,
        1e-5, false);
  }

  private static RemoteClientsDp remote(DpSettings dp) {
    return (RemoteClientsDp) dp.forRemoteClients(FederatedAlgorithm.fedAvg(), 4, 7).aggregator();
  }

  @Test
  void forRemoteClients_clientSideWithLocalNoise_clientsAddItAndTheServerDoesNot() {
    RemoteClientsDp a = remote(client(0.2, false));
    assertThat(a.served().localStddev()).isZero();
    assertThat(a.served().numSampledClients()).isEqualTo(4);
    assertThat(a.served().mode()).isEqualTo(DpMode.CLIENT);
    ClientClipping k = a.clientClipping().orElseThrow();
    assertThat(k.norm()).isEqualTo(0.5);
    assertThat(k.localNoiseStddev()).isEqualTo(0.2);
    assertThat(k.adaptiveNorm()).isEmpty();
  }

  @Test
  void forRemoteClients_clientAdaptive_countsReportedBitsAndEachRoundsNormComesFromTheState() {
    RemoteClientsDp a = remote(client(0, true));
    assertThat(a.served().reportedNormBits()).isTrue();
    StructValue state = StructValue.named("round", Tensor.ofLongs(Shape.scalar(), 3),
        "clip_norm", Tensor.scalar(0.75));
    assertThat(a.clientClipping().orElseThrow().normFor(state)).isEqualTo(0.75);
  }

  @Test
  void forRemoteClients_central_isTheDpMeanAndAsksNothingOfTheClients() {
    Aggregator a = new DpSettings(DpMode.CENTRAL, 1, 0.5, Optional.empty(), 0, 1e-5, false)
        .forRemoteClients(FederatedAlgorithm.fedAvg(), 4, 7).aggregator();
    assertThat(a).isInstanceOf(DpAggregator.class);
    assertThat(a.clientClipping()).isEmpty();
  }

  @Test
  void forRemoteClients_robustAggregator_isRefusedNamingTheAlgorithm() {
    assertThatThrownBy(() -> client(0, false).forRemoteClients(FederatedAlgorithm.named("krum",
        Map.of()), 4, 7)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not krum");
  }
}
