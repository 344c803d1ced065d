package io.tributary.flower.fleet.server.internal;

import com.google.protobuf.Message;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.tributary.flower.fleet.server.FleetLimits;
import io.tributary.flower.server.TlsFiles;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.OutboundBudget;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Fleet API over HTTP, on the JDK's own {@code com.sun.net.httpserver} (no dependency: the
 * Fleet's HTTP form is twelve POST routes with protobuf bodies, which needs no framework): every
 * call at {@code POST /v1/fleet/<call>} (Flower 1.40+), {@code /api/v0/fleet/<call>} (Flower
 * 1.27-1.39's REST SuperNodes) and {@code //api/v0/fleet/<call>} (the path Flower 1.27's REST
 * SuperNode actually posts to). Bodies are {@code application/protobuf}; a refusal is JSON
 * {@code {"detail": ..., "code": ...}} (Starlette's {@code detail}, which Flower's nodes read;
 * {@code error} carries the same text) with the matching HTTP status. Requests run on virtual
 * threads; a body larger than the largest object plus 1 MiB is refused before it is read, and
 * the bodies being read or handled at once hold at most a budget of bytes (by their declared
 * length, or the largest body when none is declared): a request past it waits for earlier ones
 * to finish, so a swarm of connections cannot hold more than the budget in the heap. A small
 * {@code push-messages} body (a reply's head, up to 64 KiB) gives its share back once parsed:
 * it may wait for the read-ahead budget, and the objects of the replies admitted before it must
 * not wait behind it.
 *
 * <p>With a TLS context it serves HTTPS (requiring a client certificate when the context's files
 * name a client CA). A call carrying Flower 1.40+'s node authentication headers
 * ({@code flwr-public-key}: base64 of the PEM public key; {@code flwr-timestamp}; and
 * {@code flwr-signature}: base64 of the ECDSA-SHA256 signature of the timestamp) is checked as
 * the gRPC metadata is ({@link NodeSignatures}) and bound to that key; a call without them is
 * anonymous, which only a server without SuperNode authentication accepts (Flower 1.27's REST
 * nodes do not sign).
 */
public final class HttpFleet implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpFleet.class);
  private static final String PROTOBUF = "application/protobuf";
  private static final String PUBLIC_KEY = "flwr-public-key";
  private static final String TIMESTAMP = "flwr-timestamp";
  private static final String SIGNATURE = "flwr-signature";

  private final HttpServer server;
  private final ExecutorService executor;
  private final FleetService service;
  private final long maxBody;
  /** Bytes of request bodies in flight; fair, so a large body is not passed over for ever. */
  private final Semaphore bodies;
  private final int bodyBudget;

  private HttpFleet(HttpServer server, ExecutorService executor, FleetService service,
      long maxBody, long bodyBudget) {
    this.server = server;
    this.executor = executor;
    this.service = service;
    this.maxBody = maxBody;
    this.bodyBudget = (int) Math.min(Integer.MAX_VALUE, Math.max(maxBody, bodyBudget));
    this.bodies = new Semaphore(this.bodyBudget, true);
  }

  /**
   * Listens on {@code host:port}.
   *
   * @throws IOException if the address cannot be bound
   */
  public static HttpFleet start(String host, int port, FleetService service, FleetLimits limits)
      throws IOException {
    return start(host, port, service, limits, Optional.empty(), InboundBudget.DEFAULT_BYTES);
  }

  /**
   * Listens on {@code host:port}, over HTTPS with {@code tls}' certificate when given, holding
   * at most {@code bodyBudget} bytes of request bodies at once (at least the largest body).
   *
   * @throws IOException if the address cannot be bound or the TLS files are unusable
   */
  public static HttpFleet start(String host, int port, FleetService service, FleetLimits limits,
      Optional<TlsFiles> tls, long bodyBudget) throws IOException {
    HttpServer server;
    if (tls.isPresent()) {
      SSLContext ctx = ServerTls.context(tls.get());
      boolean clientAuth = tls.get().clientCa().isPresent();
      HttpsServer https = HttpsServer.create(new InetSocketAddress(host, port), 0);
      https.setHttpsConfigurator(new HttpsConfigurator(ctx) {
        @Override
        public void configure(HttpsParameters params) {
          SSLParameters p = ctx.getDefaultSSLParameters();
          p.setNeedClientAuth(clientAuth);
          params.setSSLParameters(p);
        }
      });
      server = https;
    } else {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    }
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HttpFleet h = new HttpFleet(server, executor, service, limits.maxObjectBytes() + (1L << 20),
        bodyBudget);
    server.createContext("/", h::handle);
    server.setExecutor(executor);
    server.start();
    return h;
  }

  /** The port listened on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * The path a request names. A request target starting {@code //} (what Flower 1.27's REST
   * SuperNode sends) parses as a network-path reference, its first segment taken for an
   * authority: put back, it is the path the node meant.
   */
  static String path(java.net.URI uri) {
    if (uri.getScheme() == null && uri.getRawAuthority() != null) {
      return "//" + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }
    return uri.getRawPath() == null ? "" : uri.getRawPath();
  }

  /** The call a path names, if it is a Fleet path. */
  static Optional<FleetCall> route(String path) {
    String p = path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    String name;
    if (p.startsWith("v1/fleet/")) {
      name = p.substring("v1/fleet/".length());
    } else if (p.startsWith("api/v0/fleet/")) {
      name = p.substring("api/v0/fleet/".length());
    } else {
      return Optional.empty();
    }
    return FleetCall.byHttpName(name);
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      Optional<FleetCall> call = route(path(x.getRequestURI()));
      if (call.isEmpty()) {
        error(x, 404, "NOT_FOUND", "no Fleet call at " + path(x.getRequestURI()));
        return;
      }
      if (!x.getRequestMethod().equals("POST")) {
        error(x, 405, "METHOD_NOT_ALLOWED", "Fleet calls are POSTed");
        return;
      }
      long declared = declaredLength(x);
      if (declared > maxBody) {
        error(x, 413, "RESOURCE_EXHAUSTED", "the body is over " + maxBody + " bytes");
        return;
      }
      int permits = (int) Math.min(declared < 0 ? maxBody : declared, bodyBudget);
      try {
        bodies.acquire(permits);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        error(x, 503, "UNAVAILABLE", "the server is stopping");
        return;
      }
      byte[] out;
      int held = permits;
      try {
        byte[] body = readBody(x);
        if (body == null) {
          error(x, 413, "RESOURCE_EXHAUSTED", "the body is over " + maxBody + " bytes");
          return;
        }
        FleetCall c = call.get();
        Message request = c.parse(body);
        if (c == FleetCall.PUSH_MESSAGES && body.length <= OutboundBudget.SMALL) {
          // A reply's head may wait for the read-ahead budget; the bodies it waits for (its
          // admitted peers' objects) must not wait behind it. One such head per node at most.
          bodies.release(held);
          held = 0;
        }
        out = c.invoke(service, request, caller(x)).toByteArray();
      } catch (FleetCallException e) {
        error(x, e.code().http(), e.code().name(), e.getMessage());
        return;
      } finally {
        bodies.release(held);
      }
      x.getResponseHeaders().set("Content-Type", PROTOBUF);
      x.sendResponseHeaders(200, out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        try (OutputStream o = x.getResponseBody()) {
          o.write(out);
        }
      }
    } catch (IOException | RuntimeException e) {
      // A node that hangs up mid-call, or a bug: the call is lost, the server goes on.
      LOG.warn("Fleet HTTP call {} failed: {}", x.getRequestURI().getRawPath(), e.toString());
    }
  }

  /**
   * The caller a request's authentication headers prove, or anonymous without any of them.
   *
   * @throws FleetCallException (UNAUTHENTICATED) if some are missing or wrong, or none are sent
   *     to a server with SuperNode authentication
   */
  private FleetService.Caller caller(HttpExchange x) throws FleetCallException {
    String key = x.getRequestHeaders().getFirst(PUBLIC_KEY);
    String timestamp = x.getRequestHeaders().getFirst(TIMESTAMP);
    String signature = x.getRequestHeaders().getFirst(SIGNATURE);
    if (key == null && timestamp == null && signature == null) {
      if (service.authEnabled()) {
        throw new FleetCallException(FleetCallException.Code.UNAUTHENTICATED,
            "Missing authentication headers");
      }
      return FleetService.Caller.ANONYMOUS;
    }
    byte[] pem = base64(key);
    byte[] sig = base64(signature);
    return new FleetService.Caller(Optional.of(NodeSignatures.verify(pem, timestamp, sig,
        Instant.now())));
  }

  /** The bytes of a base64 header; null (then refused as missing) when absent or not base64. */
  private static byte[] base64(String header) {
    if (header == null) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(header.strip());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The body's declared length: -1 when none is declared, past the largest body when the header
   * is not a number.
   */
  private long declaredLength(HttpExchange x) {
    String declared = x.getRequestHeaders().getFirst("Content-Length");
    if (declared == null) {
      return -1;
    }
    try {
      long n = Long.parseLong(declared.strip());
      return n < 0 ? maxBody + 1 : n;
    } catch (NumberFormatException e) {
      return maxBody + 1;
    }
  }

  /** The body, or null when it runs past the largest body. */
  private byte[] readBody(HttpExchange x) throws IOException {
    try (InputStream in = x.getRequestBody()) {
      byte[] b = in.readNBytes((int) maxBody + 1);
      return b.length > maxBody ? null : b;
    }
  }

  private static void error(HttpExchange x, int status, String code, String message)
      throws IOException {
    StringBuilder json = new StringBuilder("{\"detail\": ");
    quote(json, message);
    json.append(", \"error\": ");
    quote(json, message);
    json.append(", \"code\": ");
    quote(json, code);
    json.append('}');
    byte[] b = json.toString().getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, b.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(b);
    }
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
