package io.tributary.flower.server;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerConfigTest {
  @Test
  void build_defaults_sizedFromTheMemory() {
    ServerConfig big = ServerConfig.builder().memory(new ServerMemory(4L << 30)).minClients(2)
        .build();
    assertThat(big.readAheadBytes()).isEqualTo(256 << 20);
    assertThat(big.flowControlWindow()).isEqualTo(8 << 20);

    ServerConfig small = ServerConfig.builder().memory(new ServerMemory(512L << 20))
        .minClients(4000).build();
    assertThat(small.readAheadBytes()).isEqualTo(64 << 20);
    // 128 KiB a client: the window is fixed at HTTP/2's first 64 KiB.
    assertThat(small.flowControlWindow()).isEqualTo(64 << 10);
    assertThat(small.memory().maxMemory()).isEqualTo(512L << 20);
  }

  @Test
  void build_givenReadAheadAndWindow_keepsThem() {
    ServerConfig c = ServerConfig.builder().memory(new ServerMemory(512L << 20))
        .readAheadBytes(300 << 20).flowControlWindow(2 << 20).build();
    assertThat(c.readAheadBytes()).isEqualTo(300 << 20);
    assertThat(c.flowControlWindow()).isEqualTo(2 << 20);
  }

  @Test
  void build_windowOutOfRange_isRefusedNamingTheValue() {
    for (int bad : new int[] {1000, (64 << 20) + 1}) {
      assertThatThrownBy(() -> ServerConfig.builder().flowControlWindow(bad).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("flow-control window").hasMessageContaining(String.valueOf(bad));
    }
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
