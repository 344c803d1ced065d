package io.tributary.flower.server;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.tributary.flower.server.internal.GrpcServers;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.JoinService;
import io.tributary.flower.server.internal.OutboundBudget;
import io.tributary.flower.server.internal.RoundHost;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server that speaks Flower's {@code FlowerService.Join} protocol and runs FedAvg or FedProx
 * rounds over the clients that join.
 *
 * <pre>{@code
 * ServerConfig config = ServerConfig.builder().address("0.0.0.0", 8080).rounds(3).minClients(2)
 *     .initial(InitialParameters.fromNpz(Path.of("init.npz"))).build();
 * try (FlowerServer server = FlowerServer.start(config)) {
 *   RunResult result = server.run((metrics, model) -> System.out.println(metrics));
 * }
 * }</pre>
 *
 * <p>Each round samples clients, then the runtime invokes the process's {@code next} and
 * {@code evaluate} federated computations with the sampled clients as CLIENTS; a client that
 * fails, times out or disconnects is excluded from the aggregate and reported. {@link #close()}
 * sends {@code ReconnectIns(0)} to every client before the server stops.
 */
public final class FlowerServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FlowerServer.class);

  private final ServerConfig config;
  private final SerializerRegistry registry;
  private final RoundHost host;
  private final ScheduledExecutorService timer;
  private final Server grpc;
  private boolean closed;

  private FlowerServer(ServerConfig config, ServerBuilder<?> transport,
      SerializerRegistry registry, Optional<SecureAggregation> securePasses) throws IOException {
    this.config = config;
    this.registry = registry;
    this.host = securePasses.map(p -> new RoundHost(config, registry, Optional.empty(), p))
        .orElseGet(() -> new RoundHost(config, registry));
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "flower-server-timer");
      t.setDaemon(true);
      return t;
    });
    GrpcServers.configure(transport, config,
        new JoinService(host.manager(), timer, host.traffic(), config.maxMessageSize(),
            new OutboundBudget(config.memory().outboundBytes()),
            new InboundBudget(config.readAheadBytes())), registry.available());
    this.grpc = transport.build();
    try {
      grpc.start();
    } catch (IOException e) {
      timer.shutdownNow();
      throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": "
          + e.getMessage(), e);
    }
    LOG.info("Flower server listening on {}:{} (tensor types {})", config.host(), port(),
        registry.available());
  }

  /**
   * Starts listening on the configured address over Netty, with TLS when configured.
   *
   * @throws IOException if the address cannot be bound or a TLS file is unusable
   */
  public static FlowerServer start(ServerConfig config) throws IOException {
    return start(config, GrpcServers.netty(config), SerializerRegistry.load());
  }

  /**
   * Starts on a transport the caller built (such as grpc's in-process transport); the
   * configured address and TLS files are not used, the message limit and tokens are.
   *
   * @throws IOException if the server cannot start
   */
  public static FlowerServer start(ServerConfig config, ServerBuilder<?> transport,
      SerializerRegistry registry) throws IOException {
    return new FlowerServer(Objects.requireNonNull(config, "config"),
        Objects.requireNonNull(transport, "transport"), Objects.requireNonNull(registry,
            "registry"), Optional.empty());
  }

  /**
   * Starts as {@link #start(ServerConfig)}, a computation that sums securely running its secure
   * passes on the Join clients with {@code securePasses}' neighbours and threshold rather than
   * {@link SecureAggregation#defaults()} (the configuration's own {@code secureAggregation} is
   * the secure fit round, which cannot run beside them).
   *
   * @throws IOException if the address cannot be bound or a TLS file is unusable
   */
  public static FlowerServer start(ServerConfig config, SecureAggregation securePasses)
      throws IOException {
    return new FlowerServer(Objects.requireNonNull(config, "config"), GrpcServers.netty(config),
        SerializerRegistry.load(), Optional.of(Objects.requireNonNull(securePasses,
            "securePasses")));
  }

  /** The port the server listens on (useful with port 0); -1 for a transport without ports. */
  public int port() {
    return grpc.getPort();
  }

  /** The ids of the connected clients, in the order they joined. */
  public List<String> connectedClients() {
    return host.connectedClients();
  }

  /**
   * Waits for the clients, gets the initial model and runs every round.
   *
   * @throws NotEnoughClientsException if too few clients connect in time
   * @throws FlowerServerException if the initial model cannot be had or the listener fails
   * @throws InterruptedException if interrupted
   */
  public RunResult run(RoundListener listener) throws FlowerServerException,
      InterruptedException {
    return host.run(listener);
  }

  /**
   * Asks the run to stop after the round in progress, for {@code why}, from any thread: that
   * round's listeners (checkpoints included) are told it, and {@link #run} returns its model;
   * the listener's end reads {@code Stopped after round N: why.}, and a resume goes on from
   * there.
   */
  public void stop(String why) {
    host.stop(why);
  }

  /** {@link #run(RoundListener)} without a listener. */
  public RunResult run() throws FlowerServerException, InterruptedException {
    return run((metrics, parameters) -> { });
  }

  /**
   * Sends {@code ReconnectIns(0)} to every connected client, waits up to the shutdown grace for
   * their {@code DisconnectRes}, and stops the server.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    host.shutDown(() -> { }, List.of(grpc), timer::shutdownNow);
  }
}
