package io.tributary.flower.fleet.internal;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * The Fleet API over HTTP/1.1, as Flower 1.40+'s SuperNode speaks it (and Flower 1.27's REST
 * transport under {@code /api/v0/fleet}): {@code POST <base><prefix>/<method in kebab case>} with
 * the request message as an {@code application/protobuf} body, {@code accept} the same, and the
 * node's authentication and version headers; a 200 answer of that content type carries the
 * response message. Any other answer is turned into a {@link FleetException} whose message is one
 * line: the status, and the {@code detail} of a JSON error body or the start of any other body.
 */
public final class HttpFleetClient implements FleetClient {
  public static final String PROTOBUF = "application/protobuf";
  /** The longest error body read; the rest is dropped. */
  static final int MAX_ERROR_BODY = 4096;

  private final HttpClient http;
  /** Whether this client made {@link #http} and so closes it; a shared one is its owner's. */
  private final boolean ownsHttp;
  private final String base;
  private final NodeAuth auth;
  private final Map<String, String> versionHeaders;
  private final long maxResponseBytes;

  /**
   * @param base {@code http[s]://host:port/prefix}, without a trailing slash
   * @param tls the trust for https, or null for the JDK's default trust
   * @param versionHeaders sent with every call ({@code flwr-package-name} and the like)
   * @param maxResponseBytes the largest response body accepted
   */
  public HttpFleetClient(String base, SSLContext tls, NodeAuth auth,
      Map<String, String> versionHeaders, long maxResponseBytes, Duration connectTimeout) {
    this(newHttpClient(tls, connectTimeout), true, base, auth, versionHeaders,
        maxResponseBytes);
  }

  /**
   * A client calling through {@code shared}, an {@link HttpClient} other nodes may use too
   * ({@link #newHttpClient}); {@link #close} leaves it open.
   */
  public HttpFleetClient(HttpClient shared, String base, NodeAuth auth,
      Map<String, String> versionHeaders, long maxResponseBytes) {
    this(shared, false, base, auth, versionHeaders, maxResponseBytes);
  }

  private HttpFleetClient(HttpClient http, boolean ownsHttp, String base, NodeAuth auth,
      Map<String, String> versionHeaders, long maxResponseBytes) {
    this.http = http;
    this.ownsHttp = ownsHttp;
    this.base = base;
    this.auth = auth;
    this.versionHeaders = Map.copyOf(versionHeaders);
    this.maxResponseBytes = maxResponseBytes;
  }

  /**
   * The JDK client a node calls the Fleet API with: HTTP/1.1, no redirects (a SuperLink's answer
   * never sends the node elsewhere), {@code tls} for https or the JDK's default trust when null.
   */
  public static HttpClient newHttpClient(SSLContext tls, Duration connectTimeout) {
    HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER);
    if (tls != null) {
      b.sslContext(tls);
    }
    return b.build();
  }

  /** {@code SendNodeHeartbeat} -> {@code send-node-heartbeat}. */
  static String path(MethodDescriptor<?, ?> method) {
    String name = method.getBareMethodName();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          b.append('-');
        }
        b.append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  @Override
  public <Q extends Message, R extends Message> R call(MethodDescriptor<Q, R> method, Q request,
      long timeoutMillis) {
    String url = base + "/" + path(method);
    HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(url))
        .version(HttpClient.Version.HTTP_1_1)
        .timeout(Duration.ofMillis(timeoutMillis))
        .header("content-type", PROTOBUF)
        .header("accept", PROTOBUF)
        .POST(HttpRequest.BodyPublishers.ofByteArray(request.toByteArray()));
    auth.httpHeaders().forEach(rb::header);
    versionHeaders.forEach(rb::header);
    HttpResponse<InputStream> res;
    try {
      res = http.send(rb.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpTimeoutException e) {
      throw new FleetException(FleetException.Kind.UNAVAILABLE, "POST " + url + " timed out after "
          + timeoutMillis + " ms", true);
    } catch (SSLException e) {
      throw new FleetException(FleetException.Kind.UNAVAILABLE, "TLS with " + url + " failed: "
          + GrpcFleetClient.oneLine(String.valueOf(e.getMessage())));
    } catch (IOException e) {
      throw new FleetException(FleetException.Kind.UNAVAILABLE, "POST " + url + ": "
          + describe(e), true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FleetException(FleetException.Kind.CANCELLED, "POST " + url + " interrupted");
    }
    try (InputStream body = res.body()) {
      int status = res.statusCode();
      Optional<String> type = res.headers().firstValue("content-type");
      if (status != 200) {
        throw failure(url, status, type.orElse(""), body.readNBytes(MAX_ERROR_BODY));
      }
      if (type.isEmpty() || !type.get().equals(PROTOBUF)) {
        throw new FleetException(FleetException.Kind.BAD_RESPONSE, "POST " + url
            + " answered 200 with content-type '" + clip(type.orElse("(none)"), 60)
            + "', not " + PROTOBUF);
      }
      long declared = res.headers().firstValueAsLong("content-length").orElse(-1);
      if (declared > maxResponseBytes) {
        throw tooLarge(url, declared + " bytes");
      }
      byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxResponseBytes + 1));
      if (bytes.length > maxResponseBytes) {
        throw tooLarge(url, "more than " + maxResponseBytes + " bytes");
      }
      @SuppressWarnings("unchecked")
      R empty = (R) responseDefault(method);
      try {
        @SuppressWarnings("unchecked")
        R r = (R) empty.getParserForType().parseFrom(bytes);
        return r;
      } catch (InvalidProtocolBufferException e) {
        throw new FleetException(FleetException.Kind.BAD_RESPONSE, "POST " + url
            + " answered a body that is not a " + empty.getDescriptorForType().getName());
      }
    } catch (IOException e) {
      throw new FleetException(FleetException.Kind.UNAVAILABLE, "POST " + url
          + ": the answer broke off: " + describe(e));
    }
  }

  private FleetException tooLarge(String url, String size) {
    return new FleetException(FleetException.Kind.BAD_RESPONSE, "POST " + url + " answered "
        + size + ", more than the bound of " + maxResponseBytes);
  }

  private static Message responseDefault(MethodDescriptor<?, ?> method) {
    MethodDescriptor.Marshaller<?> m = method.getResponseMarshaller();
    if (m instanceof MethodDescriptor.PrototypeMarshaller<?> p
        && p.getMessagePrototype() instanceof Message proto) {
      return proto;
    }
    throw new IllegalStateException("no protobuf prototype for " + method.getFullMethodName());
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null || m.isBlank() ? ""
        : " (" + GrpcFleetClient.oneLine(m) + ")");
  }

  /** The failure an error answer stands for, with its JSON {@code detail} when it has one. */
  static FleetException failure(String url, int status, String type, byte[] body) {
    FleetException.Kind kind = switch (status) {
      case 401, 403 -> FleetException.Kind.UNAUTHENTICATED;
      case 408, 429, 502, 503, 504 -> FleetException.Kind.UNAVAILABLE;
      case 404 -> FleetException.Kind.NOT_FOUND;
      case 409 -> FleetException.Kind.REFUSED;
      default -> status >= 400 && status < 600 ? FleetException.Kind.FAILED
          : FleetException.Kind.BAD_RESPONSE;
    };
    return new FleetException(kind, "POST " + url + " answered HTTP " + status + ": "
        + errorText(type, body));
  }

  /** {@code detail} (and {@code code}) of a JSON error body, or the start of any other body. */
  static String errorText(String type, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    if (type.startsWith("application/json")) {
      try {
        PyJson.Reader r = new PyJson.Reader(text);
        Map<String, Object> fields = r.flatObject(8);
        Object detail = fields.get("detail");
        Object code = fields.get("code");
        if (detail != null) {
          return clip(String.valueOf(detail), 300) + (code == null ? "" : " (code " + clip(
              String.valueOf(code), 40) + ")");
        }
      } catch (IllegalArgumentException e) {
        // not the JSON error shape: shown as text below
      }
    }
    String shown = text.isBlank() ? "(empty body)" : text;
    return (type.isEmpty() ? "" : "[" + clip(type, 40) + "] ") + clip(shown, 200);
  }

  static String clip(String s, int max) {
    String t = s.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
    return t.length() > max ? t.substring(0, max) + "..." : t;
  }

  @Override
  public void close() {
    if (ownsHttp) {
      http.shutdownNow();
    }
  }
}
