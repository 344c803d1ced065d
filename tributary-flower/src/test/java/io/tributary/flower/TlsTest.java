package io.tributary.flower;

import static io.tributary.flower.testing.Messages.getParameters;
import static io.tributary.flower.testing.Messages.reconnect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.tributary.flower.internal.proto.ClientMessage.MsgCase;
import io.tributary.flower.testing.Certificates;
import io.tributary.flower.testing.Messages;
import io.tributary.flower.testing.ScriptedServer;
import io.tributary.flower.testing.ScriptedServer.Send;
import io.tributary.flower.testing.ScriptedServer.Step;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client over TLS and mutual TLS to a Netty server on a localhost port. */
@Timeout(60)
class TlsTest {
  private static final List<Step> SCRIPT = List.of(new Send(getParameters()),
      new Send(reconnect(0)));
  private static final Backoff ONCE = new Backoff(Duration.ofMillis(10), Duration.ofMillis(10),
      1, 0, 2, 0);

  @TempDir static Path dir;
  private static Path caFile;
  private static Path otherCaFile;
  private static Certificates.Pem serverPem;
  private static Certificates.Pem clientPem;

  @BeforeAll
  static void certificates() throws Exception {
    Certificates ca = Certificates.authority("tributary test CA");
    caFile = ca.writeCa(dir.resolve("ca.pem"));
    serverPem = ca.issue(dir, "server");
    clientPem = ca.issue(dir, "client");
    otherCaFile = Certificates.authority("someone else").writeCa(dir.resolve("other-ca.pem"));
  }

  private static ServerCredentials serverTls(boolean requireClientCert) throws IOException {
    TlsServerCredentials.Builder b = TlsServerCredentials.newBuilder()
        .keyManager(serverPem.cert().toFile(), serverPem.key().toFile());
    if (requireClientCert) {
      b.trustManager(caFile.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return b.build();
  }

  private static FlowerClientRunner.Outcome run(ScriptedServer server, TlsSettings tls)
      throws Exception {
    try (FlowerClientRunner r = FlowerClientRunner.builder(new ConversationTest.DoublingClient())
        .target("localhost:" + server.port()).tls(tls).backoff(ONCE).build()) {
      return r.run();
    }
  }

  @Test
  void run_serverCertFromTrustedCa_completesTheConversation() throws Exception {
    try (ScriptedServer server = new ScriptedServer(null, List.of(SCRIPT))
        .startTcp(serverTls(false))) {
      assertThat(run(server, TlsSettings.trusting(caFile)))
          .isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
      assertThat(Messages.kinds(server.streams().getFirst().answers()))
          .containsExactly(MsgCase.GET_PARAMETERS_RES, MsgCase.DISCONNECT_RES);
    }
  }

  @Test
  void run_serverCertFromUnknownCa_neverJoins() throws Exception {
    try (ScriptedServer server = new ScriptedServer(null, List.of(SCRIPT))
        .startTcp(serverTls(false))) {
      assertThatThrownBy(() -> run(server, TlsSettings.trusting(otherCaFile)))
          .isInstanceOf(ConnectionFailedException.class).hasMessageContaining("UNAVAILABLE");
      assertThat(server.streams()).isEmpty();
    }
  }

  @Test
  void run_mutualTlsWithClientCertificate_completesTheConversation() throws Exception {
    try (ScriptedServer server = new ScriptedServer(null, List.of(SCRIPT))
        .startTcp(serverTls(true))) {
      TlsSettings tls = TlsSettings.trusting(caFile)
          .withClientCertificate(clientPem.cert(), clientPem.key());
      assertThat(run(server, tls)).isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
    }
  }

  @Test
  void run_mutualTlsWithoutClientCertificate_isRefused() throws Exception {
    try (ScriptedServer server = new ScriptedServer(null, List.of(SCRIPT))
        .startTcp(serverTls(true))) {
      assertThatThrownBy(() -> run(server, TlsSettings.trusting(caFile)))
          .isInstanceOf(ConnectionFailedException.class);
      assertThat(server.streams()).isEmpty();
    }
  }

  @Test
  void build_missingCaFile_namesTheFile() {
    Path missing = dir.resolve("nope.pem");
    assertThatThrownBy(() -> FlowerClientRunner.builder(new ConversationTest.DoublingClient())
        .target("localhost:1").tls(TlsSettings.trusting(missing)).build())
        .isInstanceOf(IOException.class).hasMessageContaining("nope.pem");
  }

  @Test
  void tlsSettings_certWithoutKey_isRefused() {
    assertThatThrownBy(() -> new TlsSettings(caFile, clientPem.cert(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
  }
}
