package io.tributary.flower.fleet.server.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tributary.flower.fleet.server.FleetLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Fleet API over HTTP, on the JDK's own {@code com.sun.net.httpserver} (no dependency: the
 * Fleet's HTTP form is twelve POST routes with protobuf bodies, which needs no framework): every
 * call at {@code POST /v1/fleet/<call>} (Flower 1.40+), {@code /api/v0/fleet/<call>} (Flower
 * 1.27-1.39's REST SuperNodes) and {@code //api/v0/fleet/<call>} (the path Flower 1.27's REST
 * SuperNode actually posts to). Bodies are {@code application/protobuf}; a refusal is JSON
 * {@code {"error": ..., "code": ...}} with the matching HTTP status. Requests run on virtual
 * threads; a body larger than the largest object plus 1 MiB is refused before it is read.
 */
public final class HttpFleet implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpFleet.class);
  private static final String PROTOBUF = "application/protobuf";

  private final HttpServer server;
  private final ExecutorService executor;
  private final FleetService service;
  private final long maxBody;

  private HttpFleet(HttpServer server, ExecutorService executor, FleetService service,
      long maxBody) {
    this.server = server;
    this.executor = executor;
    this.service = service;
    this.maxBody = maxBody;
  }

  /**
   * Listens on {@code host:port}.
   *
   * @throws IOException if the address cannot be bound
   */
  public static HttpFleet start(String host, int port, FleetService service, FleetLimits limits)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HttpFleet h = new HttpFleet(server, executor, service, limits.maxObjectBytes() + (1L << 20));
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
      byte[] body = readBody(x);
      if (body == null) {
        error(x, 413, "RESOURCE_EXHAUSTED", "the body is over " + maxBody + " bytes");
        return;
      }
      byte[] out;
      try {
        out = call.get().invoke(service, body, FleetService.Caller.ANONYMOUS).toByteArray();
      } catch (FleetCallException e) {
        error(x, e.code().http(), e.code().name(), e.getMessage());
        return;
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

  private byte[] readBody(HttpExchange x) throws IOException {
    String declared = x.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      try {
        if (Long.parseLong(declared.strip()) > maxBody) {
          return null;
        }
      } catch (NumberFormatException e) {
        return null;
      }
    }
    try (InputStream in = x.getRequestBody()) {
      byte[] b = in.readNBytes((int) maxBody + 1);
      return b.length > maxBody ? null : b;
    }
  }

  private static void error(HttpExchange x, int status, String code, String message)
      throws IOException {
    StringBuilder json = new StringBuilder("{\"error\": ");
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
