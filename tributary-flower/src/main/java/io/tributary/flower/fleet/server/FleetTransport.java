package io.tributary.flower.fleet.server;

/** How SuperNodes reach the Fleet API. */
public enum FleetTransport {
  /** gRPC, service {@code flwr.proto.Fleet}: Flower 1.27-1.42's default ({@code grpc-rere}). */
  GRPC_RERE,
  /** HTTP POST with protobuf bodies: Flower's {@code --rest} SuperNodes. */
  HTTP;

  /** The transport named as on the command line: {@code grpc-rere} or {@code http}/{@code rest}. */
  public static FleetTransport parse(String name) {
    return switch (name) {
      case "grpc-rere" -> GRPC_RERE;
      case "http", "rest" -> HTTP;
      default -> throw new IllegalArgumentException("unknown Fleet API type '" + name
          + "' (grpc-rere or http)");
    };
  }
}
