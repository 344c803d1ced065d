package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.ServerMemory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stream window a server's config gives is what a client may send before the server reads:
 * over real Netty transports, a client whose message the server does not read stays blocked once
 * it has sent one window, and gets the whole message out when the window holds it.
 */
class GrpcServersWindowTest {
  private static final int MESSAGE = 512 << 10;
  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
  private static final MethodDescriptor<byte[], byte[]> UNREAD = MethodDescriptor
      .<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName("test.Unread/Send").setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES).build();

  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest(name = "window {0} KiB: a 512 KiB message sent whole: {1}")
  @CsvSource({"64, false", "1024, true"})
  void netty_configuredWindow_boundsWhatAnUnreadClientSends(int windowKib, boolean sentWhole)
      throws Exception {
    ServerConfig config = ServerConfig.builder().address("127.0.0.1", 0)
        .memory(new ServerMemory(512L << 20)).flowControlWindow(windowKib << 10).build();
    // A service that never asks for the client's message, as a server whose read-ahead is full.
    ServerCallHandler<byte[], byte[]> neverReads = new ServerCallHandler<>() {
      @Override
      public ServerCall.Listener<byte[]> startCall(ServerCall<byte[], byte[]> call,
          Metadata headers) {
        return new ServerCall.Listener<>() {};
      }
    };
    server = GrpcServers.netty(config).addService(ServerServiceDefinition.builder("test.Unread")
        .addMethod(UNREAD, neverReads).build()).build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext()
        .build();
    ClientCall<byte[], byte[]> call = channel.newCall(UNREAD, CallOptions.DEFAULT);
    call.start(new ClientCall.Listener<>() {}, new Metadata());
    call.sendMessage(new byte[MESSAGE]);

    // The client's call is ready again once its transport has written all but 32 KiB of it.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (!call.isReady() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    assertThat(call.isReady()).isEqualTo(sentWhole);
    call.cancel("done", null);
  }
}
