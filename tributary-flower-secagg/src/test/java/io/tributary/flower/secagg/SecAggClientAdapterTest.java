package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggStage;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SecAggClientAdapter} against instructions a server could send it, without a server. */
class SecAggClientAdapterTest {
  private static final FlowerClient ADDS_ONE = new FlowerClient() {
    @Override
    public FitRes fit(FitIns ins) {
      return new FitRes(List.of(Tensor.ofFloats(Shape.of(1), ins.parameters().get(0)
          .getFloat(0) + 1)), 4, Map.of("loss", Scalar.of(0.1)));
    }
  };

  @Test
  void fit_noStage_goesToTheWrappedClientUnchanged() throws FlowerClientException {
    FitRes r = new SecAggClientAdapter(ADDS_ONE).fit(new FitIns(
        List.of(Tensor.ofFloats(Shape.of(1), 1)), Map.of("server_round", Scalar.of(1L))));

    assertThat(r.numExamples()).isEqualTo(4);
    assertThat(r.parameters()).containsExactly(Tensor.ofFloats(Shape.of(1), 2));
  }

  @Test
  void fit_advertiseKeys_answersOnlyKeys() throws FlowerClientException {
    Map<String, Scalar> c = new LinkedHashMap<>(
        new SecAggFlower.Parameters(1, 3, 2, 2, 8, 4, 1.0, 5).toConfig());
    c.put(SecAggFlower.STAGE, Scalar.of("advertise_keys"));

    FitRes r = new SecAggClientAdapter(ADDS_ONE).fit(new FitIns(List.of(), c));

    assertThat(r.parameters()).isEmpty();
    assertThat(r.numExamples()).isZero();
    assertThat(r.metrics()).containsOnlyKeys(SecAggFlower.STAGE, SecAggFlower.MESSAGE);
    SecAggMessage m = SecAggWire.decode(SecAggFlower.bytesOf(r.metrics(), SecAggFlower.MESSAGE));
    assertThat(m).isInstanceOf(SecAggMessage.AdvertiseKeys.class);
    assertThat(m.client()).isEqualTo(1);
  }

  @Test
  void fit_laterStageWithoutARound_failsWithoutTraining() {
    Map<String, Scalar> c = Map.of(SecAggFlower.STAGE,
        Scalar.of(SecAggFlower.stageName(SecAggStage.MASKED_INPUT)), SecAggFlower.MESSAGE,
        new Scalar.Bytes(SecAggWire.encode(new SecAggMessage.EncryptedShares(0, new int[0],
            new byte[0][]))));

    assertThatThrownBy(() -> new SecAggClientAdapter(ADDS_ONE).fit(new FitIns(
        List.of(Tensor.ofFloats(Shape.of(1), 1)), c)))
        .isInstanceOf(FlowerClientException.class).hasMessageContaining("no SecAgg+ round");
  }

  @Test
  void fit_garbageMessage_failsWithAReason() {
    Map<String, Scalar> c = new LinkedHashMap<>(
        new SecAggFlower.Parameters(0, 3, 2, 2, 8, 4, 1.0, 5).toConfig());
    c.put(SecAggFlower.STAGE, Scalar.of("advertise_keys"));
    SecAggClientAdapter a = new SecAggClientAdapter(ADDS_ONE);

    assertThatThrownBy(() -> {
      a.fit(new FitIns(List.of(), c));
      a.fit(new FitIns(List.of(), Map.of(SecAggFlower.STAGE, Scalar.of("share_keys"),
          SecAggFlower.MESSAGE, new Scalar.Bytes(new byte[] {'S', 2, 2, 0x7f, 0, 0, 0}))));
    }).isInstanceOf(FlowerClientException.class).hasMessageContaining("secure aggregation");
  }
}
