package io.tributary.bench;

import com.google.protobuf.BytesValue;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * gRPC's own ceiling for the Flower throughput benchmark: a bare grpc-java bidi stream over Netty
 * on loopback whose server echoes each {@link BytesValue} it receives, with the message limits
 * Flower uses (2 GiB - 1 both ways). Nothing but protobuf framing and parsing.
 */
final class GrpcEcho implements AutoCloseable {
  private static final MethodDescriptor<BytesValue, BytesValue> ECHO =
      MethodDescriptor.<BytesValue, BytesValue>newBuilder()
          .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
          .setFullMethodName(MethodDescriptor.generateFullMethodName("bench.Echo", "Echo"))
          .setRequestMarshaller(ProtoUtils.marshaller(BytesValue.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(BytesValue.getDefaultInstance()))
          .build();

  private final Server server;
  private final ManagedChannel channel;

  GrpcEcho() throws IOException {
    ServerServiceDefinition service = ServerServiceDefinition.builder("bench.Echo")
        .addMethod(ECHO, ServerCalls.asyncBidiStreamingCall(out -> new StreamObserver<>() {
          @Override
          public void onNext(BytesValue value) {
            out.onNext(value);
          }

          @Override
          public void onError(Throwable t) {
            out.onError(t);
          }

          @Override
          public void onCompleted() {
            out.onCompleted();
          }
        })).build();
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .maxInboundMessageSize(Integer.MAX_VALUE).addService(service).build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext()
        .maxInboundMessageSize(Integer.MAX_VALUE).build();
  }

  /** Sends {@code message} on a new stream and returns the echo. */
  BytesValue roundTrip(BytesValue message) throws InterruptedException, ExecutionException {
    CompletableFuture<BytesValue> answer = new CompletableFuture<>();
    StreamObserver<BytesValue> requests = ClientCalls.asyncBidiStreamingCall(
        channel.newCall(ECHO, io.grpc.CallOptions.DEFAULT.withMaxOutboundMessageSize(
            Integer.MAX_VALUE)), new StreamObserver<>() {
          @Override
          public void onNext(BytesValue value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            answer.completeExceptionally(new IllegalStateException("no echo"));
          }
        });
    requests.onNext(message);
    BytesValue echo = answer.get();
    requests.onCompleted();
    return echo;
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
