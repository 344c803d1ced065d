package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tributary.flower.fleet.internal.NodeAuth;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetRequest;
import io.tributary.flower.fleet.internal.proto.RegisterNodeFleetResponse;
import io.tributary.flower.fleet.server.FleetLimits;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP Fleet API's paths, bodies and refusals. */
@Timeout(30)
class HttpFleetTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private HttpFleet http;

  @BeforeEach
  void start() throws Exception {
    FleetService s = new FleetService(new ClientManager(), new FleetService.RunInfo(7, "p/a",
        "1", "00", new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
        new FleetLimits(1 << 20, 4 << 20, 64, 10), timer, new Traffic(),
        new InboundBudget(InboundBudget.DEFAULT_BYTES), Optional.empty());
    http = HttpFleet.start("127.0.0.1", 0, s, new FleetLimits(1 << 20, 4 << 20, 64, 10));
  }

  @AfterEach
  void stop() {
    http.close();
    timer.shutdownNow();
  }

  private static byte[] register() {
    return RegisterNodeFleetRequest.newBuilder().setPublicKey(ByteString.copyFrom(
        NodeAuth.pem(NodeAuth.generate()))).build().toByteArray();
  }

  /** A raw POST, so that the request target is sent exactly as given. */
  private String[] post(String target, byte[] body) throws Exception {
    try (Socket sock = new Socket("127.0.0.1", http.port())) {
      sock.setSoTimeout(10_000);
      OutputStream o = sock.getOutputStream();
      o.write(("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/protobuf\r\n"
          + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      o.write(body);
      o.flush();
      InputStream in = sock.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      byte[] r = all.toByteArray();
      String text = new String(r, StandardCharsets.ISO_8859_1);
      int split = text.indexOf("\r\n\r\n");
      return new String[] {text.substring(0, split), text.substring(split + 4)};
    }
  }

  @Test
  void post_doubleSlashPathOfFlower127RestNodes_registers() throws Exception {
    String[] r = post("//api/v0/fleet/register-node", register());
    assertThat(r[0]).startsWith("HTTP/1.1 200").containsIgnoringCase(
        "content-type: application/protobuf");
    byte[] body = r[1].getBytes(StandardCharsets.ISO_8859_1);
    assertThat(RegisterNodeFleetResponse.parseFrom(body).getNodeId()).isGreaterThan(1);
  }

  @Test
  void post_v1AndApiV0Paths_areServed() throws Exception {
    HttpClient c = HttpClient.newHttpClient();
    for (String path : new String[] {"/v1/fleet/register-node", "/api/v0/fleet/register-node"}) {
      HttpResponse<byte[]> r = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + http.port() + path)).POST(HttpRequest.BodyPublishers.ofByteArray(register()))
          .build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
    }
  }

  @Test
  void post_bodiesInFlightOverTheBudget_waitUntilEarlierOnesFinish() throws Exception {
    FleetLimits limits = new FleetLimits(1 << 20, 4 << 20, 64, 10);
    FleetService s = new FleetService(new ClientManager(), new FleetService.RunInfo(7, "p/a",
        "1", "00", new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()), limits,
        timer, new Traffic(), new InboundBudget(InboundBudget.DEFAULT_BYTES), Optional.empty());
    int largest = (1 << 20) + (1 << 20);
    // A budget of 1 byte is raised to the largest body: one such body fills it.
    try (HttpFleet small = HttpFleet.start("127.0.0.1", 0, s, limits, Optional.empty(), 1);
        Socket slow = new Socket("127.0.0.1", small.port())) {
      slow.setSoTimeout(10_000);
      OutputStream o = slow.getOutputStream();
      o.write(("POST /v1/fleet/push-object HTTP/1.1\r\nHost: x\r\nContent-Length: " + largest
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      o.flush();
      Thread.sleep(300);
      HttpClient c = HttpClient.newHttpClient();
      java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> later = c.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + small.port()
              + "/v1/fleet/register-node")).POST(HttpRequest.BodyPublishers.ofByteArray(
                  register())).build(), HttpResponse.BodyHandlers.ofByteArray());
      Thread.sleep(500);
      assertThat(later).as("a body past the budget waits").isNotDone();

      o.write(new byte[largest]); // not a push-object request: refused, its room given back
      o.flush();
      String status = new java.io.BufferedReader(new java.io.InputStreamReader(
          slow.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      assertThat(status).startsWith("HTTP/1.1 400");
      assertThat(later.get(10, java.util.concurrent.TimeUnit.SECONDS).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void post_unknownCall_404WithJsonError() throws Exception {
    String[] r = post("/v1/fleet/launch-missiles", new byte[0]);
    assertThat(r[0]).startsWith("HTTP/1.1 404").containsIgnoringCase("application/json");
    assertThat(r[1]).contains("\"detail\": \"no Fleet call at /v1/fleet/launch-missiles\"");
  }

  @Test
  void post_bodyNotTheCallsRequest_400NamingIt() throws Exception {
    String[] r = post("/v1/fleet/register-node", new byte[] {(byte) 0xff, 1, 2});
    assertThat(r[0]).startsWith("HTTP/1.1 400");
    assertThat(r[1]).contains("not a register-node request").contains("INVALID_ARGUMENT");
  }

  @Test
  void post_bodyOverTheBound_413BeforeReadingIt() throws Exception {
    // Declared, not sent: the server answers from the header alone.
    try (Socket sock = new Socket("127.0.0.1", http.port())) {
      sock.setSoTimeout(10_000);
      sock.getOutputStream().write(("POST /v1/fleet/push-object HTTP/1.1\r\nHost: x\r\n"
          + "Content-Length: " + ((2 << 20) + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String status = new java.io.BufferedReader(new java.io.InputStreamReader(
          sock.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      assertThat(status).startsWith("HTTP/1.1 413");
    }
  }

  /** A server with SuperNode authentication, {@code allowed} registered. */
  private HttpFleet authServer(java.security.KeyPair allowed) throws Exception {
    FleetService s = new FleetService(new ClientManager(), new FleetService.RunInfo(7, "p/a",
        "1", "00", new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
        new FleetLimits(1 << 20, 4 << 20, 64, 10), timer, new Traffic(),
        new InboundBudget(InboundBudget.DEFAULT_BYTES),
        Optional.of(java.util.List.of(allowed.getPublic().getEncoded())));
    return HttpFleet.start("127.0.0.1", 0, s, new FleetLimits(1 << 20, 4 << 20, 64, 10));
  }

  private static HttpResponse<byte[]> activate(int port, java.security.KeyPair keys,
      Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/v1/fleet/activate-node")).POST(HttpRequest.BodyPublishers.ofByteArray(
            io.tributary.flower.fleet.internal.proto.ActivateNodeRequest.newBuilder()
                .setPublicKey(ByteString.copyFrom(NodeAuth.pem(keys))).setHeartbeatInterval(30)
                .build().toByteArray()));
    headers.forEach(b::header);
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String sign(java.security.KeyPair keys, String timestamp) throws Exception {
    java.security.Signature s = java.security.Signature.getInstance("SHA256withECDSA");
    s.initSign(keys.getPrivate());
    s.update(timestamp.getBytes(StandardCharsets.US_ASCII));
    return java.util.Base64.getEncoder().encodeToString(s.sign());
  }

  @Test
  void post_signedByARegisteredKey_activatesTheNode() throws Exception {
    java.security.KeyPair keys = NodeAuth.generate();
    try (HttpFleet auth = authServer(keys)) {
      HttpResponse<byte[]> r = activate(auth.port(), keys, new NodeAuth(keys).httpHeaders());
      assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
      assertThat(io.tributary.flower.fleet.internal.proto.ActivateNodeResponse.parseFrom(r.body())
          .getNodeId()).isGreaterThan(1);
    }
  }

  @Test
  void post_unsignedToAServerWithNodeAuth_401() throws Exception {
    java.security.KeyPair keys = NodeAuth.generate();
    try (HttpFleet auth = authServer(keys)) {
      HttpResponse<byte[]> r = activate(auth.port(), keys, Map.of());
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(new String(r.body(), StandardCharsets.UTF_8))
          .contains("Missing authentication headers");
    }
  }

  @Test
  void post_signatureOfAnotherKey_401() throws Exception {
    java.security.KeyPair keys = NodeAuth.generate();
    java.security.KeyPair other = NodeAuth.generate();
    try (HttpFleet auth = authServer(keys)) {
      Map<String, String> h = new java.util.HashMap<>(new NodeAuth(keys).httpHeaders());
      h.put("flwr-signature", sign(other, h.get("flwr-timestamp")));
      HttpResponse<byte[]> r = activate(auth.port(), keys, h);
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("Invalid signature");
    }
  }

  @Test
  void post_timestampOutsideTheWindow_401() throws Exception {
    java.security.KeyPair keys = NodeAuth.generate();
    try (HttpFleet auth = authServer(keys)) {
      for (long offset : new long[] {-306, 6}) {
        String ts = java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(offset)
            .toString();
        Map<String, String> h = new java.util.HashMap<>(new NodeAuth(keys).httpHeaders());
        h.put("flwr-timestamp", ts);
        h.put("flwr-signature", sign(keys, ts));
        HttpResponse<byte[]> r = activate(auth.port(), keys, h);
        assertThat(r.statusCode()).as("offset %d s", offset).isEqualTo(401);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("Invalid timestamp");
      }
    }
  }

  @Test
  void post_keyNotRegistered_refusedAndNoNodeMade() throws Exception {
    java.security.KeyPair keys = NodeAuth.generate();
    java.security.KeyPair stranger = NodeAuth.generate();
    try (HttpFleet auth = authServer(keys)) {
      HttpResponse<byte[]> reg = HttpClient.newHttpClient().send(withHeaders(HttpRequest
          .newBuilder(URI.create("http://127.0.0.1:" + auth.port() + "/v1/fleet/register-node"))
          .POST(HttpRequest.BodyPublishers.ofByteArray(RegisterNodeFleetRequest.newBuilder()
              .setPublicKey(ByteString.copyFrom(NodeAuth.pem(stranger))).build().toByteArray())),
          new NodeAuth(stranger).httpHeaders()).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(reg.statusCode()).isEqualTo(409);
      HttpResponse<byte[]> act = activate(auth.port(), stranger,
          new NodeAuth(stranger).httpHeaders());
      assertThat(act.statusCode()).isEqualTo(409);
      assertThat(new String(act.body(), StandardCharsets.UTF_8))
          .contains("No SuperNode found with the given public key");
    }
  }

  private static HttpRequest.Builder withHeaders(HttpRequest.Builder b, Map<String, String> h) {
    h.forEach(b::header);
    return b;
  }

  @Test
  void start_withTls_servesHttpsWithTheCertificate() throws Exception {
    io.tributary.flower.server.TestCerts certs = new io.tributary.flower.server.TestCerts(
        java.nio.file.Files.createTempDirectory("fleet-tls"));
    FleetService s = new FleetService(new ClientManager(), new FleetService.RunInfo(7, "p/a",
        "1", "00", new byte[0], Map.of()), new MessageApi(SerializerRegistry.load()),
        new FleetLimits(1 << 20, 4 << 20, 64, 10), timer, new Traffic(),
        new InboundBudget(InboundBudget.DEFAULT_BYTES), Optional.empty());
    try (HttpFleet https = HttpFleet.start("127.0.0.1", 0, s,
        new FleetLimits(1 << 20, 4 << 20, 64, 10), Optional.of(new io.tributary.flower.server
            .TlsFiles(certs.serverCert, certs.serverKey, Optional.empty())),
        InboundBudget.DEFAULT_BYTES)) {
      HttpClient c = HttpClient.newBuilder().sslContext(
          io.tributary.flower.fleet.internal.RootCertificates.sslContext(certs.caCert)).build();
      HttpResponse<byte[]> r = c.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
          + https.port() + "/v1/fleet/register-node"))
          .POST(HttpRequest.BodyPublishers.ofByteArray(register())).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(RegisterNodeFleetResponse.parseFrom(r.body()).getNodeId()).isGreaterThan(1);
      // A plain-text client gets no answer from a TLS port.
      assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> HttpClient.newHttpClient()
          .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + https.port()
              + "/v1/fleet/register-node")).timeout(java.time.Duration.ofSeconds(5))
              .POST(HttpRequest.BodyPublishers.ofByteArray(register())).build(),
              HttpResponse.BodyHandlers.ofByteArray()))).isNotNull();
    }
  }
}
