package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.TlsServerCredentials;
import io.tributary.flower.Backoff;
import io.tributary.flower.testing.Certificates;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node told to connect without TLS to a SuperLink that speaks TLS stops with one line saying
 * so, over either transport, instead of retrying forever; a plain-text address that is merely
 * down is retried as before.
 */
@Timeout(60)
class InsecureAgainstTlsTest {
  @TempDir Path dir;

  private static SuperNode.Builder node(String address, FleetTransport t, int attempts) {
    return SuperNode.builder(address).transport(t).insecure(true)
        .clientApp(new PlusKApp().app())
        .backoff(Backoff.DEFAULT.withDelays(Duration.ofMillis(20), Duration.ofMillis(40))
            .withMaxAttempts(attempts));
  }

  @Test
  void start_insecureAgainstATlsSuperLink_stopsWithOneLineSayingSo() throws Exception {
    Certificates.Pem pem = Certificates.authority("test CA").issue(dir, "superlink");
    Server tls = Grpc.newServerBuilderForPort(0, TlsServerCredentials.create(pem.cert().toFile(),
        pem.key().toFile())).build().start();
    try {
      for (FleetTransport t : List.of(FleetTransport.http(), FleetTransport.grpcRere())) {
        SuperNode node = node("127.0.0.1:" + tls.getPort(), t, Integer.MAX_VALUE).build()
            .start();
        HttpTransportTest.await(() -> node.failure() != null, Duration.ofSeconds(30));
        node.close();
        assertThat(node.failure()).as(t.toString()).isNotNull();
        assertThat(node.failure().getMessage()).contains("speaks TLS", "without TLS")
            .doesNotContain("\n");
      }
    } finally {
      tls.shutdownNow();
    }
  }

  @Test
  void start_insecureAgainstADownAddress_retriedThenGivesUp() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    SuperNode node = node("127.0.0.1:" + port, FleetTransport.http(), 2).build().start();
    HttpTransportTest.await(() -> node.failure() != null, Duration.ofSeconds(30));
    node.close();
    assertThat(node.failure().getMessage()).contains("gave up").doesNotContain("TLS");
  }
}
