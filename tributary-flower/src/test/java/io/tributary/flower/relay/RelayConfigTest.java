package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.server.ServerMemory;
import org.junit.jupiter.api.Test;

/** A relay sizes its read-ahead and Join stream windows by the server's rules. */
class RelayConfigTest {
  private static RelayConfig.Builder relay() {
    return RelayConfig.builder().upstream("localhost:9091");
  }

  @Test
  void build_defaults_sizedFromTheMemoryAndMinClients() {
    RelayConfig big = relay().memory(new ServerMemory(4L << 30)).minClients(2).build();
    assertThat(big.readAheadBytes()).isEqualTo(256 << 20);
    assertThat(big.flowControlWindow()).isEqualTo(8 << 20);

    RelayConfig small = relay().memory(new ServerMemory(512L << 20)).minClients(4000).build();
    assertThat(small.readAheadBytes()).isEqualTo(64 << 20);
    // 128 KiB a client: the window is fixed at HTTP/2's first 64 KiB.
    assertThat(small.flowControlWindow()).isEqualTo(64 << 10);
    assertThat(small.memory().maxMemory()).isEqualTo(512L << 20);
  }

  @Test
  void build_noMemory_sizesFromThisJvm() {
    RelayConfig c = relay().minClients(10).build();
    ServerMemory heap = ServerMemory.ofThisJvm();

    assertThat(c.memory()).isEqualTo(heap);
    assertThat(c.readAheadBytes()).isEqualTo(heap.readAheadBytes());
    assertThat(c.flowControlWindow()).isEqualTo(heap.flowControlWindow(10));
  }

  @Test
  void build_givenReadAheadAndWindow_keepsThem() {
    RelayConfig c = relay().memory(new ServerMemory(512L << 20)).minClients(4000)
        .readAheadBytes(300 << 20).flowControlWindow(2 << 20).build();
    assertThat(c.readAheadBytes()).isEqualTo(300 << 20);
    assertThat(c.flowControlWindow()).isEqualTo(2 << 20);
  }

  @Test
  void build_windowOutOfRange_isRefusedNamingTheValue() {
    for (int bad : new int[] {1000, (64 << 20) + 1}) {
      assertThatThrownBy(() -> relay().flowControlWindow(bad).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("flow-control window").hasMessageContaining(String.valueOf(bad));
    }
  }

  @Test
  void build_readAheadBelow64KiB_isRefusedNamingTheValue() {
    assertThatThrownBy(() -> relay().readAheadBytes(1000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("read-ahead").hasMessageContaining("1000");
  }
}
