package io.tributary.flower.internal;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;

/**
 * The binding of {@code flwr.proto.FlowerService}: its one bidirectional-streaming method,
 * {@code Join}, described for grpc-java.
 *
 * <p>This is what grpc-java's protoc plugin would generate; the plugin binary is not published
 * for every platform we build on, so the two descriptors are declared here with grpc-java's own
 * API instead. Large messages are parsed with their {@code bytes} fields sharing one array
 * ({@link AliasingMarshaller}).
 */
public final class FlowerRpc {
  /** The service's full name, as in Flower's {@code transport.proto}. */
  public static final String SERVICE = "flwr.proto.FlowerService";

  /** {@code rpc Join(stream ClientMessage) returns (stream ServerMessage)}. */
  public static final MethodDescriptor<ClientMessage, ServerMessage> JOIN =
      MethodDescriptor.<ClientMessage, ServerMessage>newBuilder()
          .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
          .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Join"))
          .setRequestMarshaller(new AliasingMarshaller<>(ClientMessage.getDefaultInstance()))
          .setResponseMarshaller(new AliasingMarshaller<>(ServerMessage.getDefaultInstance()))
          .setSampledToLocalTracing(true)
          .build();

  private FlowerRpc() {}

  /** A service definition whose {@code Join} streams are handled by {@code join}. */
  public static ServerServiceDefinition service(
      ServerCalls.BidiStreamingMethod<ClientMessage, ServerMessage> join) {
    return ServerServiceDefinition.builder(SERVICE)
        .addMethod(JOIN, ServerCalls.asyncBidiStreamingCall(join))
        .build();
  }
}
