package io.tributary.flower.secagg;

import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.internal.proto.ClientMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Legacy Flower clients of the secure aggregation tests, each joining an in-process gRPC server
 * (a Flower server or a relay) on a channel of its own; closed after the test with the channels
 * handed to it.
 */
final class InProcessClients implements AutoCloseable {
  private final UnaryOperator<FlowerClientBuilder> settings;
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<FlowerClientRunner> runners = new ArrayList<>();

  /** Clients whose runners are built with {@code settings} (backoff, serializers) applied. */
  InProcessClients(UnaryOperator<FlowerClientBuilder> settings) {
    this.settings = settings;
  }

  /**
   * Starts a runner for {@code client} joining the in-process server named {@code name}; gives
   * its channel, which a test may shut down to drop the client.
   */
  ManagedChannel join(String name, FlowerClient client) throws IOException {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    channels.add(channel);
    FlowerClientRunner runner = settings.apply(FlowerClientRunner.builder(client)
        .channel(channel)).build();
    runners.add(runner);
    CompletableFuture<FlowerClientRunner.Outcome> unused = runner.start();
    return channel;
  }

  /** Shuts {@code channel} down when the clients close. */
  ManagedChannel closeLater(ManagedChannel channel) {
    channels.add(channel);
    return channel;
  }

  /** Stops the clients' runners; their channels stay until {@link #close}. */
  void stopRunners() throws InterruptedException {
    for (FlowerClientRunner r : runners) {
      r.close();
    }
    runners.clear();
  }

  /** Stops the runners still running, then shuts every channel down. */
  @Override
  public void close() throws InterruptedException {
    stopRunners();
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    channels.clear();
  }

  /** A server interceptor adding every message a client sends to {@code into}. */
  static ServerInterceptor recording(Collection<ClientMessage> into) {
    return new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
          ServerCallHandler<Q, A> next) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
            next.startCall(call, headers)) {
          @Override
          public void onMessage(Q message) {
            if (message instanceof ClientMessage m) {
              into.add(m);
            }
            super.onMessage(message);
          }
        };
      }
    };
  }
}
