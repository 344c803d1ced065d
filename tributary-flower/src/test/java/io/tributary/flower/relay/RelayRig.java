package io.tributary.flower.relay;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.Backoff;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * An in-process deployment: a server, relays reporting to it and clients joining the relays,
 * each over grpc's in-process transport, closed together.
 */
final class RelayRig implements AutoCloseable {
  static final SerializerRegistry REGISTRY = SerializerRegistry.load();
  static final Backoff QUICK = new Backoff(Duration.ofMillis(20), Duration.ofMillis(200), 2, 0,
      Integer.MAX_VALUE, 0);

  final String serverName = InProcessServerBuilder.generateName();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<FlowerClientRunner> runners = new ArrayList<>();
  private final List<Relay> relays = new ArrayList<>();
  final List<CompletableFuture<FlowerClientRunner.Outcome>> relayRuns = new ArrayList<>();
  FlowerServer server;

  FlowerServer server(ServerConfig config) throws Exception {
    server = FlowerServer.start(config, InProcessServerBuilder.forName(serverName), REGISTRY);
    return server;
  }

  ManagedChannel toServer() {
    ManagedChannel c = InProcessChannelBuilder.forName(serverName).build();
    channels.add(c);
    return c;
  }

  static RelayConfig.Builder config(int minClients) {
    return RelayConfig.builder().address("localhost", 0).upstream("in-process")
        .minClients(minClients).clientWait(Duration.ofSeconds(20)).backoff(QUICK)
        .roundTimeout(Duration.ofSeconds(30)).shutdownGrace(Duration.ofSeconds(1));
  }

  /**
   * Starts a relay whose clients join at {@code name}; it joins the server once it has its
   * minimum of clients, on a thread of its own.
   */
  Relay relay(RelayConfig config, String name) throws Exception {
    Relay r = Relay.start(config, InProcessServerBuilder.forName(name), toServer(), REGISTRY);
    relays.add(r);
    return r;
  }

  /** Runs {@code relay} (join the server, answer it) on a thread of its own. */
  void run(Relay relay) {
    CompletableFuture<FlowerClientRunner.Outcome> f = new CompletableFuture<>();
    relayRuns.add(f);
    Thread.ofPlatform().name("relay").daemon().start(() -> {
      try {
        f.complete(relay.run());
      } catch (Exception | Error e) {
        f.completeExceptionally(e);
      }
    });
  }

  /** The clients' runners started so far. */
  List<FlowerClientRunner> runners() {
    return List.copyOf(runners);
  }

  /** Closes {@code runner} with the rest. */
  void closeLater(FlowerClientRunner runner) {
    runners.add(runner);
  }

  /** Starts a runner for {@code client} joining the relay at {@code name}. */
  FlowerClientRunner join(FlowerClient client, String name) throws Exception {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    channels.add(channel);
    FlowerClientRunner runner = FlowerClientRunner.builder(client).channel(channel)
        .backoff(QUICK).serializers(REGISTRY).build();
    runners.add(runner);
    CompletableFuture<FlowerClientRunner.Outcome> unused = runner.start();
    return runner;
  }

  static void await(Supplier<Integer> count, int n, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (count.get() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + n + " " + what + ", have " + count.get());
      }
      Thread.sleep(5);
    }
  }

  /** Starts the relays' clients in order: relay r's k-th client is client r * perRelay + k. */
  List<Relay> edges(int relayCount, int perRelay) throws Exception {
    int[] sizes = new int[relayCount];
    java.util.Arrays.fill(sizes, perRelay);
    return edges(1, sizes);
  }

  /**
   * Starts relays of {@code sizes[r]} clients each, running {@code edgeRounds} edge rounds per
   * fit, their clients numbered in order across the relays, each joining after the one before.
   */
  List<Relay> edges(int edgeRounds, int... sizes) throws Exception {
    List<Relay> out = new ArrayList<>();
    int client = 0;
    for (int r = 0; r < sizes.length; r++) {
      String name = InProcessServerBuilder.generateName();
      Relay relay = relay(config(sizes[r]).edgeRounds(edgeRounds).build(), name);
      for (int k = 0; k < sizes[r]; k++) {
        join(new EdgeClients.Trainer(client++), name);
        int joined = k + 1;
        int index = r;
        await(() -> relay.connectedClients().size(), joined, "clients on relay " + index);
      }
      out.add(relay);
    }
    return out;
  }

  /** Runs the relays in order, each joining the server after the one before. */
  void joinInOrder(List<Relay> relays) throws InterruptedException {
    for (int r = 0; r < relays.size(); r++) {
      run(relays.get(r));
      int joined = r + 1;
      await(() -> server.connectedClients().size(), joined, "relays on the server");
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (server != null) {
      server.close();
    }
    for (Relay r : relays) {
      r.close();
    }
    for (FlowerClientRunner r : runners) {
      r.close();
    }
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
