package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS and mutual TLS on Netty, localhost, port 0. */
class TlsTest {
  @TempDir
  static Path dir;
  static TestCerts certs;

  @BeforeAll
  static void makeCerts() throws Exception {
    certs = new TestCerts(dir);
  }

  static ManagedChannel channel(FlowerServer s, ChannelCredentials creds) {
    return Grpc.newChannelBuilderForAddress("localhost", s.port(), creds).build();
  }

  static void awaitClients(FlowerServer s, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (s.connectedClients().size() != n && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(s.connectedClients()).hasSize(n);
  }

  @Test
  void run_tlsClientsTrustingTheCa_completeARound() throws Exception {
    ServerConfig config = Harness.config().rounds(1).minClients(2).tls(new TlsFiles(
        certs.serverCert, certs.serverKey, Optional.empty())).build();
    try (FlowerServer s = FlowerServer.start(config)) {
      ChannelCredentials creds = TlsChannelCredentials.newBuilder()
          .trustManager(certs.caCert.toFile()).build();
      ManagedChannel ch = channel(s, creds);
      new FakeClient(ch, new Metadata(), Behaviours.honest(1, 1));
      new FakeClient(ch, new Metadata(), Behaviours.honest(3, 1));
      awaitClients(s, 2);
      RunResult r = s.run();
      assertThat(r.finalParameters().get("w")).isEqualTo(Tensor.ofFloats(Shape.of(2), 2, 2));
      ch.shutdownNow();
    }
  }

  @Test
  void join_plaintextClientOnTlsServer_failsAndIsNotRegistered() throws Exception {
    ServerConfig config = Harness.config().tls(new TlsFiles(certs.serverCert, certs.serverKey,
        Optional.empty())).build();
    try (FlowerServer s = FlowerServer.start(config)) {
      ManagedChannel ch = channel(s, InsecureChannelCredentials.create());
      FakeClient c = new FakeClient(ch, new Metadata(), Behaviours.honest(1, 1));
      assertThat(c.closed.get(10, TimeUnit.SECONDS).getCode())
          .isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.connectedClients()).isEmpty();
      ch.shutdownNow();
    }
  }

  @Test
  void join_mtlsClientWithCertificate_registers() throws Exception {
    ServerConfig config = Harness.config().tls(new TlsFiles(certs.serverCert, certs.serverKey,
        Optional.of(certs.caCert))).build();
    try (FlowerServer s = FlowerServer.start(config)) {
      ChannelCredentials creds = TlsChannelCredentials.newBuilder()
          .trustManager(certs.caCert.toFile())
          .keyManager(certs.clientCert.toFile(), certs.clientKey.toFile()).build();
      ManagedChannel ch = channel(s, creds);
      new FakeClient(ch, new Metadata(), Behaviours.honest(1, 1));
      awaitClients(s, 1);
      ch.shutdownNow();
    }
  }

  @Test
  void join_mtlsClientWithoutCertificate_failsAndIsNotRegistered() throws Exception {
    ServerConfig config = Harness.config().tls(new TlsFiles(certs.serverCert, certs.serverKey,
        Optional.of(certs.caCert))).build();
    try (FlowerServer s = FlowerServer.start(config)) {
      ChannelCredentials creds = TlsChannelCredentials.newBuilder()
          .trustManager(certs.caCert.toFile()).build();
      ManagedChannel ch = channel(s, creds);
      FakeClient c = new FakeClient(ch, new Metadata(), Behaviours.honest(1, 1));
      assertThat(c.closed.get(10, TimeUnit.SECONDS).getCode())
          .isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(s.connectedClients()).isEmpty();
      ch.shutdownNow();
    }
  }

  @Test
  void start_missingKeyFile_failsNamingIt() {
    ServerConfig config = Harness.config().tls(new TlsFiles(certs.serverCert,
        dir.resolve("nope.key"), Optional.empty())).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> FlowerServer.start(config))
        .hasMessageContaining("nope.key");
  }
}
