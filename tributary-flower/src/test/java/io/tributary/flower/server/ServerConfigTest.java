package io.tributary.flower.server;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerConfigTest {
  @Test
  void build_defaults_readAhead256MiB() {
    assertThat(ServerConfig.builder().build().readAheadBytes()).isEqualTo(256 << 20);
  }

  @Test
  void build_readAheadBelow64KiB_isRefusedNamingTheValue() {
    assertThatThrownBy(() -> ServerConfig.builder().readAheadBytes(1000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("read-ahead").hasMessageContaining("1000");
  }

  @Test
  void build_resumingAnOptimizerWithoutItsState_isRefused() {
    var model = new java.util.LinkedHashMap<String, io.tributary.tensor.Tensor>();
    model.put("w", io.tributary.tensor.Tensor.scalar(1f));
    ServerConfig.Builder b = ServerConfig.builder().rounds(5)
        .initial(new InitialParameters.Resumed(model, 2))
        .algorithm(io.tributary.learning.FederatedAlgorithm.named("fedyogi"));

    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resume: the checkpoint holds no state of fedyogi's server "
            + "optimizer");
    assertThat(b.algorithm(FederatedAlgorithm.fedAvg()).build().initial().roundsDone()).isEqualTo(2);
  }

  @Test
  void display_fedProxWithTokens_showsTheSettingsButNoToken() {
    ServerConfig c = ServerConfig.builder().address("0.0.0.0", 8080).rounds(7).minClients(3)
        .algorithm(FederatedAlgorithm.named("fedprox", java.util.Map.of("proximal_mu", 0.25))).tokens(java.util.Set.of("secret-token"))
        .build();

    var m = c.display();

    assertThat(m).containsEntry("algorithm", "fedprox").containsEntry("mu", "0.25")
        .containsEntry("rounds", "7").containsEntry("min clients", "3")
        .containsEntry("address", "0.0.0.0:8080").containsEntry("initial model",
            "asked of a client").containsEntry("tls", "off")
        .containsEntry("bearer tokens", "1 accepted");
    assertThat(m.sequencedKeySet().getFirst()).isEqualTo("algorithm");
    assertThat(m.values()).noneMatch(v -> v.contains("secret-token"));
  }
}
