package io.tributary.flower.server;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** An in-process FlowerServer and a channel for fake clients. */
final class Harness implements AutoCloseable {
  final FlowerServer server;
  final ManagedChannel channel;

  Harness(ServerConfig config) throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = FlowerServer.start(config, InProcessServerBuilder.forName(name), Behaviours.REGISTRY);
    channel = InProcessChannelBuilder.forName(name).build();
  }

  FakeClient client(Function<ServerMessage, Optional<ClientMessage>> behaviour) {
    return new FakeClient(channel, new Metadata(), behaviour);
  }

  FakeClient client(Metadata headers, Function<ServerMessage, Optional<ClientMessage>> b) {
    return new FakeClient(channel, headers, b);
  }

  /** Waits until {@code n} clients are registered. */
  void awaitClients(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.connectedClients().size() != n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + n + " clients, have "
            + server.connectedClients());
      }
      Thread.sleep(5);
    }
  }

  /** Config builder with two parameters w=[0,0] and b=1, short waits, in-process friendly. */
  static ServerConfig.Builder config() {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    init.put("b", Tensor.scalar(1f));
    return ServerConfig.builder().address("localhost", 0).initial(
        new InitialParameters.Given(init)).clientWait(Duration.ofSeconds(10))
        .shutdownGrace(Duration.ofSeconds(2));
  }

  @Override
  public void close() throws InterruptedException {
    server.close();
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
