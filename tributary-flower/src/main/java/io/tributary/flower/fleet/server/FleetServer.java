package io.tributary.flower.fleet.server;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.tributary.flower.fleet.server.internal.FleetService;
import io.tributary.flower.fleet.server.internal.GrpcFleet;
import io.tributary.flower.fleet.server.internal.HttpFleet;
import io.tributary.flower.fleet.server.internal.MessageApi;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.Scalar;
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
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  private final FleetService service;
  private final long runId;
  private Server join;
  private Server grpcFleet;
  private HttpFleet httpFleet;
  private boolean closed;

  private FleetServer(ServerConfig config, FleetApi fleet, SerializerRegistry registry)
      throws IOException {
    this.config = config;
    this.fleet = fleet;
    this.registry = registry;
    this.host = new RoundHost(config, registry);
    this.manager = host.manager();
    this.traffic = host.traffic();
    this.timer = Executors.newScheduledThreadPool(2, r -> {
      Thread t = new Thread(r, "fleet-server-timer");
      t.setDaemon(true);
      return t;
    });
    long id;
    SecureRandom random = new SecureRandom();
    do {
      id = random.nextLong() & Long.MAX_VALUE;
    } while (id == 0);
    this.runId = id;
    FlowerApp app = fleet.app();
    this.service = new FleetService(manager, new FleetService.RunInfo(runId, app.fabId(),
        app.version(), app.hash(), app.fab(), scalars(fleet.runConfig())),
        new MessageApi(registry), fleet.limits(), timer, traffic,
        fleet.authorizedKeys().map(FleetServer::der));
    try {
      start();
    } catch (IOException | RuntimeException e) {
      stopTransports();
      timer.shutdownNow();
      throw e;
    }
    timer.scheduleAtFixedRate(service::sweep, 1, 1, TimeUnit.SECONDS);
  }

  private void start() throws IOException {
    if (fleet.serveJoin()) {
      ServerBuilder<?> b = GrpcServers.netty(config);
      GrpcServers.configure(b, config, new JoinService(manager, timer, traffic,
          config.maxMessageSize(), new OutboundBudget(OutboundBudget.DEFAULT_BYTES),
          new InboundBudget(config.readAheadBytes())), registry.available());
      join = b.build();
      try {
        join.start();
      } catch (IOException e) {
        throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": "
            + e.getMessage(), e);
      }
      LOG.info("Flower Join endpoint listening on {}:{}", config.host(), join.getPort());
    }
    String where = fleet.host() + ":" + fleet.port();
    try {
      switch (fleet.transport()) {
        case HTTP -> httpFleet = HttpFleet.start(fleet.host(), fleet.port(), service,
            fleet.limits(), fleet.tls());
        case GRPC_RERE -> {
          ServerBuilder<?> b = GrpcServers.netty(fleet.host(), fleet.port(), fleet.tls());
          b.maxInboundMessageSize(fleet.limits().maxObjectBytes() + (1 << 20));
          b.addService(GrpcFleet.service(service));
          b.addTransportFilter(GrpcFleet.transportFilter());
          grpcFleet = b.build().start();
        }
      }
    } catch (IOException e) {
      throw new IOException("cannot serve the Fleet API on " + where + ": " + e.getMessage(), e);
    }
    LOG.info("Fleet API ({}) listening on {}:{} serving {}; run {}", fleet.transport(),
        fleet.host(), fleetPort(), fleet.app(), Long.toUnsignedString(runId));
  }

  /**
   * Starts the Fleet API and, if asked, the legacy Join endpoint, with the tensor formats found
   * on the class path.
   *
   * @throws IOException if an address cannot be bound or a TLS file is unusable
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

  private static List<byte[]> der(List<PublicKey> keys) {
    return keys.stream().map(PublicKey::getEncoded).toList();
  }

  private static Map<String, io.tributary.flower.internal.proto.Scalar> scalars(
      Map<String, Object> config) {
    Map<String, Scalar> out = new LinkedHashMap<>();
    config.forEach((k, v) -> out.put(k, switch (v) {
      case Long l -> new Scalar.Int(l);
      case Double d -> new Scalar.Double(d);
      case Boolean b -> new Scalar.Bool(b);
      case String s -> new Scalar.Str(s);
      default -> throw new IllegalArgumentException("run config '" + k + "' is " + v);
    }));
    return ScalarCodec.toProto(out);
  }

  /** The port of the Fleet API (useful with port 0). */
  public int fleetPort() {
    return httpFleet != null ? httpFleet.port() : grpcFleet.getPort();
  }

  /** The port of the legacy Join endpoint; empty when it is not served. */
  public Optional<Integer> joinPort() {
    return join == null ? Optional.empty() : Optional.of(join.getPort());
  }

  /** The run id SuperNodes are told. */
  public long runId() {
    return runId;
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
    host.shutDown(() -> {
      service.endAll();
      if (httpFleet != null) {
        httpFleet.close();
      }
    }, Arrays.asList(grpcFleet, join), timer::shutdownNow);
  }

  /** Stops what {@link #start()} had started when it failed part way. */
  private void stopTransports() {
    if (httpFleet != null) {
      httpFleet.close();
    }
    for (Server s : Arrays.asList(grpcFleet, join)) {
      if (s != null) {
        s.shutdownNow();
      }
    }
  }
}
