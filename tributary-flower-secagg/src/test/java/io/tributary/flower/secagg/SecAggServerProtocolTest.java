package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Scalar;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class SecAggServerProtocolTest {
  @Test
  void serviceLoader_secureFitProtocol_findsSecAggPlus() {
    List<SecureFitProtocol> found = ServiceLoader.load(SecureFitProtocol.class).stream()
        .map(ServiceLoader.Provider::get).toList();

    assertThat(found).singleElement().isInstanceOf(SecAggServerProtocol.class)
        .extracting(SecureFitProtocol::name).isEqualTo("SecAgg+");
    assertThat(found.get(0).exchanges()).isEqualTo(4);
  }

  @Test
  void defaults_serverSettings_areSecAggSettingsDefaults() {
    SecureAggregation d = SecureAggregation.defaults();

    assertThat(d.neighbours()).isEqualTo(SecAggSettings.DEFAULT_NEIGHBOURS);
    assertThat(d.threshold()).isEqualTo(SecAggSettings.DEFAULT_THRESHOLD);
    assertThat(d.bits()).isEqualTo(SecAggSettings.DEFAULT_INPUT_BITS);
  }

  @Test
  void run_oneClient_failsWithoutAnyExchange() {
    List<String> stages = new ArrayList<>();
    SecureFitProtocol.Exchange exchange = new SecureFitProtocol.Exchange() {
      @Override
      public int clients() {
        return 1;
      }

      @Override
      public Map<Integer, Map<String, Scalar>> fit(String stage,
          Map<Integer, Map<String, Scalar>> configs, boolean withModel) {
        stages.add(stage);
        return Map.of();
      }

      @Override
      public void exclude(int client, String stage, String why) {
        stages.add("excluded " + client);
      }
    };

    assertThatThrownBy(() -> new SecAggServerProtocol().run(SecureAggregation.defaults(),
        List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)), Map.of(), exchange))
        .isInstanceOf(SecureFitProtocol.Failed.class).hasMessageContaining("at least 2 clients");
    assertThat(stages).isEmpty();
  }
}
