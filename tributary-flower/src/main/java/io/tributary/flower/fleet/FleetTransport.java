package io.tributary.flower.fleet;

import java.util.Objects;

/**
 * How a {@link SuperNode} reaches the SuperLink's Fleet API: over HTTP, as flower-supernode 1.40+
 * does by default and the only way Flower 1.43+ serves it, or over Flower's gRPC "request-response"
 * service, which SuperLinks up to 1.42 serve.
 */
public sealed interface FleetTransport {
  /** The path prefix of Flower 1.40+'s HTTP Fleet API. */
  String FLEET_V1 = "/v1/fleet";
  /**
   * The path prefix of the REST Fleet API of Flower 1.27 to 1.39 ({@code flower-superlink
   * --fleet-api-type rest}), the same design under another prefix.
   */
  String FLEET_REST_V0 = "/api/v0/fleet";

  /**
   * The Fleet API over HTTP/1.1: every call is
   * {@code POST {http|https}://HOST:PORT{prefix}/<method>} with the {@code flwr.proto} request as
   * an {@code application/protobuf} body.
   *
   * @param pathPrefix the path before the method name: {@code /} and then segments of letters,
   *     digits, {@code -}, {@code _}, {@code .}, without a trailing {@code /}
   */
  record Http(String pathPrefix) implements FleetTransport {
    public Http {
      Objects.requireNonNull(pathPrefix, "pathPrefix");
      if (!pathPrefix.matches("(/[A-Za-z0-9._-]+)+")) {
        throw new IllegalArgumentException("HTTP path prefix must look like /v1/fleet, got '"
            + (pathPrefix.length() > 80 ? pathPrefix.substring(0, 80) + "..." : pathPrefix)
            + "'");
      }
    }
  }

  /** Flower's gRPC Fleet service ({@code flwr.proto.Fleet}, "grpc-rere"), Flower up to 1.42. */
  record GrpcRere() implements FleetTransport {}

  /** HTTP under {@link #FLEET_V1}, Flower 1.40+'s default. */
  static Http http() {
    return new Http(FLEET_V1);
  }

  /** HTTP under another prefix, such as {@link #FLEET_REST_V0} for Flower 1.27 to 1.39. */
  static Http http(String pathPrefix) {
    return new Http(pathPrefix);
  }

  /** gRPC-rere, Flower up to 1.42. */
  static GrpcRere grpcRere() {
    return new GrpcRere();
  }

  /**
   * The transport a flag names: {@code http} or {@code grpc-rere} (as flower-supernode's
   * {@code --transport}); {@code pathPrefix} applies to {@code http}.
   */
  static FleetTransport parse(String name, String pathPrefix) {
    return switch (Objects.requireNonNull(name, "name")) {
      case "http", "rest" -> new Http(pathPrefix == null ? FLEET_V1 : pathPrefix);
      case "grpc-rere" -> {
        if (pathPrefix != null) {
          throw new IllegalArgumentException("an HTTP path prefix needs the http transport");
        }
        yield new GrpcRere();
      }
      default -> throw new IllegalArgumentException("unknown transport '"
          + (name.length() > 40 ? name.substring(0, 40) + "..." : name)
          + "', expected http or grpc-rere");
    };
  }
}
