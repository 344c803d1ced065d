package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ServiceLoader;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Secure aggregation is a protocol the server finds on its class path: this module provides
 * none (SecAgg+ is tributary-flower-secagg's), so here a server asked for it fails at once.
 */
class SecureFitProtocolLookupTest {
  @Test
  void serviceLoader_thisModulesClassPath_findsNoProtocol() {
    assertThat(ServiceLoader.load(SecureFitProtocol.class).findFirst()).isEmpty();
  }

  @Test
  void run_secureAggregationWithoutAProtocol_failsBeforeWaitingForClients() throws Exception {
    ServerConfig config = ServerConfig.builder().address("localhost", 0).rounds(1).minClients(1)
        .secureAggregation(SecureAggregation.defaults()).clientWait(Duration.ofMinutes(5))
        .build();
    try (FlowerServer server = FlowerServer.start(config,
        InProcessServerBuilder.forName("no-protocol-" + UUID.randomUUID()),
        SerializerRegistry.load())) {
      long start = System.nanoTime();
      assertThatThrownBy(server::run).isInstanceOf(FlowerServerException.class)
          .hasMessageContaining("tributary-flower-secagg");
      // No client ever joins: the failure did not wait clientWait for one.
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMinutes(1));
    }
  }
}
