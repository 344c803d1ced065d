package io.tributary.flower.fleet.internal;

import com.google.protobuf.Message;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** The Fleet API over Flower's gRPC service ({@code grpc-rere}), on a channel it owns. */
public final class GrpcFleetClient implements FleetClient {
  private final ManagedChannel channel;
  private final FleetRpc rpc;

  public GrpcFleetClient(ManagedChannel channel) {
    this.channel = channel;
    this.rpc = new FleetRpc(channel, 60_000);
  }

  @Override
  public <Q extends Message, R extends Message> R call(MethodDescriptor<Q, R> method, Q request,
      long timeoutMillis) {
    try {
      return rpc.call(method, request, timeoutMillis);
    } catch (StatusRuntimeException e) {
      throw translate(e.getStatus());
    }
  }

  /** The failure a gRPC status stands for, its description on one line. */
  static FleetException translate(Status s) {
    FleetException.Kind kind = switch (s.getCode()) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED ->
          FleetException.Kind.UNAVAILABLE;
      case UNAUTHENTICATED, PERMISSION_DENIED -> FleetException.Kind.UNAUTHENTICATED;
      case CANCELLED -> FleetException.Kind.CANCELLED;
      case FAILED_PRECONDITION, ALREADY_EXISTS -> FleetException.Kind.REFUSED;
      case NOT_FOUND -> FleetException.Kind.NOT_FOUND;
      default -> FleetException.Kind.FAILED;
    };
    String why = s.getDescription() == null ? "" : ": " + oneLine(s.getDescription());
    // UNAVAILABLE and DEADLINE_EXCEEDED come from the channel itself when nothing answered
    return new FleetException(kind, "gRPC " + s.getCode() + why,
        s.getCode() == Status.Code.UNAVAILABLE || s.getCode() == Status.Code.DEADLINE_EXCEEDED);
  }

  static String oneLine(String s) {
    String t = s.replaceAll("\\s+", " ").strip();
    return t.length() > 300 ? t.substring(0, 300) + "..." : t;
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
