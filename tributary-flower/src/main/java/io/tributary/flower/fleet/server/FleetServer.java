package io.tributary.flower.fleet.server;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.tributary.flower.fleet.server.internal.FleetEndpoint;
import io.tributary.flower.fleet.server.internal.FleetSecureRound;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.GrpcServers;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.JoinService;
import io.tributary.flower.server.internal.OutboundBudget;
import io.tributary.flower.server.internal.RoundHost;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Tributary server that Flower's SuperNodes join over the Fleet API (grpc-rere or HTTP),
 * beside the legacy {@code FlowerService.Join} endpoint; all of them take part in the same
 * rounds, run by the same round loop as {@link io.tributary.flower.server.FlowerServer}'s.
 *
 * <pre>{@code
 * ServerConfig config = ServerConfig.builder().address("0.0.0.0", 8080).rounds(3).minClients(2)
 *     .initial(InitialParameters.fromNpz(Path.of("init.npz"))).build();
 * FleetApi fleet = FleetApi.builder(FlowerApp.load(Path.of("quickstart-numpy")))
 *     .address("0.0.0.0", 9092).build();
 * try (FleetServer server = FleetServer.start(config, fleet)) {
 *   RunResult result = server.run(listener);
 * }
 * }</pre>
 *
 * <p>A SuperNode gets the App's FAB, runs its ClientApp, and is sent {@code train} and
 * {@code evaluate} messages in Flower's Message-API form ({@code arrays}, {@code config} with
 * {@code server-round}; replies with {@code arrays} and {@code metrics} holding
 * {@code num-examples}). A node whose heartbeats stop for twice its interval is offline and
 * fails its outstanding instruction; a node that breaks the rules fails only its own reply.
 *
 * <p>With {@link FleetApi#secAggPlus()} every fit round is Flower's SecAgg+ workflow, run here in
 * Java, against Flower's {@code secaggplus_mod} on Python nodes and {@code SecAggPlusMod} on Java
 * ones; the round computation gets the unmasked mean as one aggregated update.
 */
public final class FleetServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FleetServer.class);

  private final ServerConfig config;
  private final FleetApi fleet;
  private final SerializerRegistry registry;
  private final RoundHost host;
  private final ClientManager manager;
  private final Traffic traffic;
  private final ScheduledExecutorService timer;
  private FleetEndpoint endpoint;
  private Server join;
  private boolean closed;

  private FleetServer(ServerConfig config, FleetApi fleet, SerializerRegistry registry)
      throws IOException {
    if (config.secureAggregation().isPresent()) {
      throw new IllegalArgumentException("a Fleet server's secure aggregation is Flower's "
          + "SecAgg+ (FleetApi.Builder.secAggPlus), which Flower's secaggplus_mod and "
          + "SecAggPlusMod answer; the ServerConfig's is the Join server's own protocol");
    }
    if (fleet.secAggPlus().isPresent() && config.fitInsConfig().containsKey(
        io.tributary.flower.server.internal.ServerAlgorithm.CLIPPING_NORM)) {
      throw new IllegalArgumentException("client-side DP with Flower's SecAgg+: its workflow "
          + "weighs each node's update by its example count, so one node could move the noised "
          + "sum by more than the clipping norm");
    }
    this.config = config;
    this.fleet = fleet;
    this.registry = registry;
    this.host = new RoundHost(config, registry, fleet.secAggPlus().map(s ->
        new FleetSecureRound(s, config.roundTimeout())), fleet.securePasses());
    this.manager = host.manager();
    this.traffic = host.traffic();
    this.timer = Executors.newScheduledThreadPool(2, r -> {
      Thread t = new Thread(r, "fleet-server-timer");
      t.setDaemon(true);
      return t;
    });
    try {
      start();
    } catch (IOException | RuntimeException e) {
      stopTransports();
      timer.shutdownNow();
      throw e;
    }
  }

  private void start() throws IOException {
    // One read-ahead budget for both endpoints: Join streams' and Fleet nodes' fit answers.
    InboundBudget inbound = new InboundBudget(config.readAheadBytes());
    if (fleet.serveJoin()) {
      ServerBuilder<?> b = GrpcServers.netty(config);
      GrpcServers.configure(b, config, new JoinService(manager, timer, traffic,
          config.maxMessageSize(), new OutboundBudget(config.memory().outboundBytes()),
          inbound), registry.available());
      join = b.build();
      try {
        join.start();
      } catch (IOException e) {
        throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": "
            + e.getMessage(), e);
      }
      LOG.info("Flower Join endpoint listening on {}:{}", config.host(), join.getPort());
    }
    endpoint = FleetEndpoint.start(fleet, manager, registry, timer, traffic, inbound);
  }

  /**
   * Starts the Fleet API and, if asked, the legacy Join endpoint, with the tensor formats found
   * on the class path.
   *
   * @throws IOException if an address cannot be bound or a TLS file is unusable
   * @throws IllegalArgumentException if {@code config} asks for the Join server's secure
   *     aggregation (a Fleet server's is {@link FleetApi#secAggPlus()}), or for client-side DP
   *     with {@link FleetApi#secAggPlus()}
   */
  public static FleetServer start(ServerConfig config, FleetApi fleet) throws IOException {
    return start(config, fleet, SerializerRegistry.load());
  }

  /** Like {@link #start(ServerConfig, FleetApi)} with the given tensor formats. */
  public static FleetServer start(ServerConfig config, FleetApi fleet,
      SerializerRegistry registry) throws IOException {
    return new FleetServer(Objects.requireNonNull(config, "config"),
        Objects.requireNonNull(fleet, "fleet"), Objects.requireNonNull(registry, "registry"));
  }

  /** The port of the Fleet API (useful with port 0). */
  public int fleetPort() {
    return endpoint.port();
  }

  /** The port of the legacy Join endpoint; empty when it is not served. */
  public Optional<Integer> joinPort() {
    return join == null ? Optional.empty() : Optional.of(join.getPort());
  }

  /** The run id SuperNodes are told. */
  public long runId() {
    return endpoint.runId();
  }

  /** The ids of the connected clients (Join clients and online nodes), in the order they came. */
  public List<String> connectedClients() {
    return host.connectedClients();
  }

  /**
   * Waits for the clients, gets the initial model and runs every round.
   *
   * @throws io.tributary.flower.server.NotEnoughClientsException if too few clients connect in
   *     time
   * @throws FlowerServerException if the initial model cannot be had or the listener fails
   * @throws InterruptedException if interrupted
   */
  public RunResult run(RoundListener listener) throws FlowerServerException,
      InterruptedException {
    return host.run(listener);
  }

  /**
   * Asks the run to stop after the round in progress, for {@code why}, from any thread, as
   * {@link io.tributary.flower.server.FlowerServer#stop} does.
   */
  public void stop(String why) {
    host.stop(why);
  }

  /** {@link #run(RoundListener)} without a listener. */
  public RunResult run() throws FlowerServerException, InterruptedException {
    return run((metrics, parameters) -> { });
  }

  /**
   * Tells the Join clients to disconnect (waiting up to the shutdown grace), takes every node
   * offline and stops serving.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    host.shutDown(endpoint::endNodes, Arrays.asList(endpoint.grpcServer(), join),
        timer::shutdownNow);
  }

  /** Stops what {@link #start()} had started when it failed part way. */
  private void stopTransports() {
    if (endpoint != null) {
      endpoint.stopNow();
    }
    if (join != null) {
      join.shutdownNow();
    }
  }
}
