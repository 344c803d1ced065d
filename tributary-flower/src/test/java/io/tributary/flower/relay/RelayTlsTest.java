package io.tributary.flower.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.TlsSettings;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.TestCerts;
import io.tributary.flower.server.TlsFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and bearer tokens on both sides of a relay, over Netty on localhost: clients to the relay
 * and the relay to the server each present their own token over their own TLS connection.
 */
class RelayTlsTest {
  @TempDir
  static Path dir;
  static TestCerts certs;

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = new TestCerts(dir);
  }

  private static ServerConfig server() {
    ServerConfig base = RelayRoundTest.server(1, 1, EdgeClients.initial());
    return ServerConfig.builder().address("localhost", 0).rounds(1).minClients(1)
        .initial(base.initial()).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(1))
        .tls(new TlsFiles(certs.serverCert, certs.serverKey, Optional.empty()))
        .tokens(Set.of("server-token")).build();
  }

  private static RelayConfig relay(FlowerServer s, String upstreamToken) {
    return RelayRig.config(2).address("localhost", 0).upstream("localhost:" + s.port())
        .tls(new TlsFiles(certs.serverCert, certs.serverKey, Optional.empty()))
        .tokens(Set.of("edge-token")).upstreamTls(TlsSettings.trusting(certs.caCert))
        .upstreamToken(upstreamToken).build();
  }

  private static FlowerClientRunner client(Relay r, int k, String token) throws Exception {
    return FlowerClientRunner.builder(new EdgeClients.Trainer(k))
        .target("localhost:" + r.port()).tls(TlsSettings.trusting(certs.caCert))
        .authToken(token).backoff(RelayRig.QUICK.withMaxAttempts(3)).build();
  }

  @Test
  void round_tlsAndTokensOnBothSides_completesAndEqualsTheSimulation() throws Exception {
    try (FlowerServer s = FlowerServer.start(server());
        Relay r = Relay.start(relay(s, "server-token"))) {
      FlowerClientRunner a = client(r, 0, "edge-token");
      CompletableFuture<FlowerClientRunner.Outcome> unusedA = a.start();
      RelayRig.await(() -> r.connectedClients().size(), 1, "clients");
      FlowerClientRunner b = client(r, 1, "edge-token");
      CompletableFuture<FlowerClientRunner.Outcome> unusedB = b.start();
      RelayRig.await(() -> r.connectedClients().size(), 2, "clients");
      CompletableFuture<FlowerClientRunner.Outcome> relayRun = CompletableFuture.supplyAsync(
          () -> {
            try {
              return r.run();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      RelayRig.await(() -> s.connectedClients().size(), 1, "relays");

      RunResult result = s.run();

      assertThat(result.rounds().get(0).failureReasons()).isEmpty();
      assertThat(result.finalParameters().get("kernel"))
          .isEqualTo(RelayRoundTest.simulate(1, 2, 1, EdgeClients.initial()).get(0));
      s.close();
      assertThat(relayRun.get(10, TimeUnit.SECONDS))
          .isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
      a.close();
      b.close();
    }
  }

  @Test
  void join_clientWithTheServersTokenNotTheRelays_isRefusedByTheRelay() throws Exception {
    try (FlowerServer s = FlowerServer.start(server());
        Relay r = Relay.start(relay(s, "server-token"))) {
      FlowerClientRunner c = client(r, 0, "server-token");
      assertThatThrownBy(c::run).isInstanceOf(ConnectionFailedException.class)
          .hasMessageContaining("UNAUTHENTICATED");
      assertThat(r.connectedClients()).isEmpty();
    }
  }

  @Test
  void run_relayWithAWrongUpstreamToken_failsRefusedAndTheServerHasNoRelay() throws Exception {
    try (FlowerServer s = FlowerServer.start(server());
        Relay r = Relay.start(relay(s, "edge-token"))) {
      List<FlowerClientRunner> clients = List.of(client(r, 0, "edge-token"),
          client(r, 1, "edge-token"));
      clients.forEach(FlowerClientRunner::start);
      assertThatThrownBy(r::run).isInstanceOf(ConnectionFailedException.class)
          .hasMessageContaining("refused").hasMessageContaining("UNAUTHENTICATED");
      assertThat(s.connectedClients()).isEmpty();
      for (FlowerClientRunner c : clients) {
        c.close();
      }
    }
  }
}
