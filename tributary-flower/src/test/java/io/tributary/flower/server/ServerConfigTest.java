package io.tributary.flower.server;

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
}
