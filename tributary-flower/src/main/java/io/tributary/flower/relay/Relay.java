package io.tributary.flower.relay;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.ConnectionListener;
import io.tributary.flower.FlowerClientBuilder;
import io.tributary.flower.FlowerClientRunner;
import io.tributary.flower.fleet.server.internal.FleetEndpoint;
import io.tributary.flower.relay.internal.EdgeClient;
import io.tributary.flower.server.NotEnoughClientsException;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.GrpcServers;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.JoinService;
import io.tributary.flower.server.internal.OutboundBudget;
import io.tributary.flower.server.internal.RemoteClient;
import io.tributary.flower.server.internal.Shutdown;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An edge server between clients and a {@code tributary server}: clients join it as they join a
 * server (Flower's {@code Join} protocol, TLS and bearer tokens; and, with {@link
 * RelayConfig.Builder#fleet}, SuperNodes over the Fleet API as they join a {@code FleetServer}),
 * and it joins the server as one client whose answers are its edge's aggregates.
 *
 * <pre>{@code
 * RelayConfig config = RelayConfig.builder().address("0.0.0.0", 9092)
 *     .upstream("server.example:9091").minClients(3).build();
 * try (Relay relay = Relay.start(config)) {
 *   relay.run(); // until the server ends the run
 * }
 * }</pre>
 *
 * <p>For each {@code FitIns} the server sends, the relay runs {@link RelayConfig#edgeRounds}
 * edge rounds over the clients connected to it, as one edge of hierarchical FedAvg ({@code
 * HierarchicalFedAvg.edgeRounds}, on the runtime), and answers with the edge's update and its
 * clients' examples: a round over relays equals the simulated hierarchical round with the same
 * k2 whose edges are the relays' clients, bit for bit, for any split (docs/flower.md,
 * "Relays"). The server takes each relay as one update, so its robust aggregators count edges,
 * and a relay's bad answer fails that relay only.
 *
 * <p>When the relay loses its server it tells its clients, once per outage, to come back when it
 * next tries to rejoin ({@code ReconnectIns} with that delay), and rejoins with the configured
 * backoff.
 */
public final class Relay implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

  private final RelayConfig config;
  private final ClientManager manager = new ClientManager();
  private final ScheduledExecutorService timer;
  private final Server grpc;
  /** The Fleet API served to SuperNodes; null when not configured. */
  private FleetEndpoint fleet;
  private final FlowerClientRunner upstream;
  /** The runner's attempt number of the first retry after a loss. */
  private static final int FIRST_RETRY = 2;

  private final AtomicInteger losses = new AtomicInteger();
  private final AtomicInteger outages = new AtomicInteger();
  private volatile String lastLoss = "";
  /** The thread in {@link #run}, while it runs. */
  private volatile Thread running;
  private final java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
  private boolean closed;

  private Relay(RelayConfig config, ServerBuilder<?> downstream, ManagedChannel upstreamChannel,
      SerializerRegistry registry) throws IOException {
    this.config = config;
    this.timer = Executors.newScheduledThreadPool(2, r -> {
      Thread t = new Thread(r, "relay-timer");
      t.setDaemon(true);
      return t;
    });
    io.tributary.flower.server.SecureFitProtocol secure = null;
    if (config.secureAggregation().isPresent()) {
      // Found before anything listens, so that a missing protocol fails at once.
      try {
        secure = io.tributary.flower.server.internal.RemoteClientWork.secureProtocol();
      } catch (io.tributary.flower.server.FlowerServerException e) {
        timer.shutdownNow();
        throw new IOException(e.getMessage(), e);
      }
    }
    FlowerClientBuilder b = FlowerClientRunner.builder(new EdgeClient(manager, registry, config,
        secure))
        .relay(true).serializers(registry).tensorTypes(config.tensorTypes())
        .maxMessageSize(config.maxMessageSize()).backoff(config.backoff())
        .connectionListener(new Upstream());
    config.upstreamToken().ifPresent(b::authToken);
    if (upstreamChannel != null) {
      b.channel(upstreamChannel);
    } else {
      b.target(config.upstream());
      config.upstreamTls().ifPresent(b::tls);
    }
    try {
      this.upstream = b.build();
    } catch (IOException | RuntimeException e) {
      timer.shutdownNow();
      throw e;
    }
    // One read-ahead budget for the relay's Join streams and its Fleet nodes.
    InboundBudget inbound = new InboundBudget(config.readAheadBytes());
    GrpcServers.configure(downstream, config.maxMessageSize(), config.tokens(),
        new JoinService(manager, timer, new Traffic(), config.maxMessageSize(),
            new OutboundBudget(config.memory().outboundBytes()), inbound), registry.available());
    this.grpc = downstream.build();
    try {
      grpc.start();
    } catch (IOException e) {
      timer.shutdownNow();
      upstream.stop();
      throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": "
          + e.getMessage(), e);
    }
    if (config.fleet().isPresent()) {
      try {
        fleet = FleetEndpoint.start(config.fleet().get(), manager, registry, timer,
            new Traffic(), inbound);
      } catch (IOException | RuntimeException e) {
        grpc.shutdownNow();
        timer.shutdownNow();
        upstream.stop();
        throw e;
      }
    }
    LOG.info("relay listening on {}:{}, reporting to {}", config.host(), port(),
        config.upstream());
  }

  /**
   * Listens for clients on the configured address over Netty, with TLS when configured; the
   * server is reached at {@link RelayConfig#upstream()}, with its TLS and token.
   *
   * @throws IOException if the address cannot be bound, a TLS file is unusable, or secure
   *     aggregation is asked for and no {@code SecureFitProtocol} is on the class path
   */
  public static Relay start(RelayConfig config) throws IOException {
    Objects.requireNonNull(config, "config");
    return new Relay(config, GrpcServers.netty(config.host(), config.port(), config.tls(),
        config.flowControlWindow()), null, SerializerRegistry.load());
  }

  /**
   * Starts on transports the caller built (grpc's in-process ones, say): clients join through
   * {@code downstream}, the server is reached over {@code upstream}, which the caller owns. The
   * configured addresses, TLS files and stream window are not used (they are the transport's);
   * the tokens, limits and memory budgets are.
   *
   * @throws IOException if the relay cannot start
   */
  public static Relay start(RelayConfig config, ServerBuilder<?> downstream,
      ManagedChannel upstream, SerializerRegistry registry) throws IOException {
    return new Relay(Objects.requireNonNull(config, "config"),
        Objects.requireNonNull(downstream, "downstream"),
        Objects.requireNonNull(upstream, "upstream"), Objects.requireNonNull(registry,
            "registry"));
  }

  /** The port clients join (useful with port 0); -1 for a transport without ports. */
  public int port() {
    return grpc.getPort();
  }

  /** The port SuperNodes join over the Fleet API; empty when the relay serves none. */
  public java.util.Optional<Integer> fleetPort() {
    return fleet == null ? java.util.Optional.empty() : java.util.Optional.of(fleet.port());
  }

  /** The ids of the connected clients (Join clients and online nodes), in the order they came. */
  public List<String> connectedClients() {
    return manager.all().stream().map(RemoteClient::id).toList();
  }

  /** How many times the relay has lost (or failed to reach) its server so far. */
  public int upstreamLosses() {
    return losses.get();
  }

  /**
   * How many outages of the server the relay has had so far: a loss, and the failed retries
   * after it until the server next speaks, are one outage. The clients are told once per outage.
   */
  public int upstreamOutages() {
    return outages.get();
  }

  /** Why the server was last lost, in words; empty if never. */
  public String lastUpstreamLoss() {
    return lastLoss;
  }

  /** How many streams the relay has opened to its server so far. */
  public int upstreamConnections() {
    return upstream.connections();
  }

  /**
   * Waits for the minimum of clients, then joins the server and answers it until the server
   * ends the run ({@code ReconnectIns(0)}) or {@link #close()} is called. A relay runs once.
   *
   * @throws NotEnoughClientsException if too few clients join within the client wait
   * @throws ConnectionFailedException if the server refuses the relay (a wrong token, say) or
   *     stays unreachable past the backoff's attempts
   * @throws InterruptedException if interrupted
   */
  public FlowerClientRunner.Outcome run() throws NotEnoughClientsException,
      ConnectionFailedException, InterruptedException {
    running = Thread.currentThread();
    try {
      manager.waitFor(config.minClients(), config.clientWait());
      LOG.info("{} clients joined; joining {}", manager.size(), config.upstream());
      return upstream.run();
    } finally {
      running = null;
      ran.countDown();
    }
  }

  /**
   * Stops answering the server, sends {@code ReconnectIns(0)} to every client, waits up to the
   * shutdown grace for their {@code DisconnectRes}, and stops listening.
   */
  @Override
  public synchronized void close() throws InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    upstream.stop();
    try {
      Shutdown.disconnectAll(manager, config.shutdownGrace());
      if (fleet != null) {
        fleet.endNodes();
        if (fleet.grpcServer() != null) {
          fleet.grpcServer().shutdownNow();
        }
      }
      grpc.shutdown();
      if (!grpc.awaitTermination(config.shutdownGrace().toMillis() + 100,
          TimeUnit.MILLISECONDS)) {
        grpc.shutdownNow();
      }
      // An edge round in progress (waiting for clients, say) ends when its clients have gone;
      // one that does not is interrupted, so that closing takes the grace, not the client wait.
      Thread t = running;
      if (t != null && !ran.await(config.shutdownGrace().toMillis() + 100,
          TimeUnit.MILLISECONDS)) {
        t.interrupt();
      }
    } finally {
      timer.shutdownNow();
      upstream.close();
    }
  }

  /**
   * Tells the clients when the server is lost, once per outage: they are asked to come back when
   * the relay next tries to rejoin, so that none waits on a relay that cannot report its round.
   */
  private final class Upstream implements ConnectionListener {
    @Override
    public void lost(String reason, Duration retryIn, int attempt, int maxAttempts) {
      losses.incrementAndGet();
      lastLoss = reason;
      LOG.warn("lost the server {} ({}); rejoining in {} ms", config.upstream(), reason,
          retryIn.toMillis());
      // The runner counts attempts from 2 again after a stream on which the server spoke: that
      // is a new outage. Later failed retries are the same outage, and the clients, told once,
      // are back and waiting for the relay's next edge round.
      if (attempt <= FIRST_RETRY) {
        outages.incrementAndGet();
        inform(retryIn);
      }
    }

    @Override
    public void reconnectRequested(long seconds) {
      inform(Duration.ofSeconds(seconds));
    }

    private void inform(Duration in) {
      // At least a second: ReconnectIns counts whole seconds, and 0 would end the clients.
      long seconds = Math.max(1, (in.toMillis() + 999) / 1000);
      timer.execute(() -> {
        try {
          // SuperNodes have no "come back later": they stay and poll for the next edge round.
          Shutdown.reconnect(manager.all().stream().filter(RemoteClient::comesBackWhenAsked)
              .toList(), seconds, config.shutdownGrace());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
  }
}
