package io.tributary.flower.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.relay.RelayConfig;
import io.tributary.flower.server.ServerMemory;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runtime an edge round runs in: its workers bounded by the relay's memory, as a server's. */
class EdgeClientOptionsTest {
  private static final long MIB = 1 << 20;

  @Test
  void workers_fourMegabyteModelOn512MiB_fewerThanTheCap() {
    // 1,001,000 parameters: a quarter of 512 MiB holds 16 float64 sums of 8,008,000 bytes, so
    // 7 workers (2 x 7 + 1 = 15 sums), not 16.
    List<Tensor> model = List.of(Tensor.zeros(DType.FLOAT32, Shape.of(1000, 1000)),
        Tensor.zeros(DType.FLOAT32, Shape.of(1000)));
    assertThat(EdgeClient.workers(new ServerMemory(512 * MIB), 16, model)).isEqualTo(7);
  }

  @Test
  void workers_smallModel_theCap() {
    List<Tensor> model = List.of(Tensor.zeros(DType.FLOAT64, Shape.of(60, 10)),
        Tensor.zeros(DType.FLOAT64, Shape.of(10)));
    assertThat(EdgeClient.workers(new ServerMemory(512 * MIB), 16, model)).isEqualTo(16);
  }

  @Test
  void workers_modelTooLargeForEvenTwoSums_one() {
    List<Tensor> model = List.of(Tensor.zeros(DType.FLOAT32, Shape.of(4, 1024, 1024)));
    assertThat(EdgeClient.workers(new ServerMemory(64 * MIB), 16, model)).isEqualTo(1);
  }

  @Test
  void options_workersAndSecureExchanges_reachTheRuntime() {
    RelayConfig config = RelayConfig.builder().upstream("localhost:9091")
        .roundTimeout(Duration.ofSeconds(30)).maxConcurrentClients(16).build();
    var o = EdgeClient.options(config, 7, 4);
    assertThat(o.threads()).isEqualTo(7);
    // Each of a secure round's four exchanges is allowed the round timeout; the runtime's own
    // limit lies a second behind.
    assertThat(o.clientTimeout()).contains(Duration.ofSeconds(121));
  }
}
