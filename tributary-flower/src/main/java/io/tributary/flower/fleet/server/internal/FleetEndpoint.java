package io.tributary.flower.fleet.server.internal;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.tributary.flower.Scalar;
import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.GrpcServers;
import io.tributary.flower.server.internal.InboundBudget;
import io.tributary.flower.server.internal.Traffic;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Fleet API served for a {@link FleetApi}: a fresh run id, the {@link FleetService} that
 * makes each SuperNode a client of {@code manager}, and its transport (grpc-rere or HTTP), with
 * the sweep that takes silent nodes offline. A {@code FleetServer} serves one beside its Join
 * endpoint; a relay serves one to its own SuperNodes.
 */
public final class FleetEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(FleetEndpoint.class);

  private final FleetApi fleet;
  private final FleetService service;
  private final long runId;
  private final ScheduledFuture<?> sweep;
  private Server grpc;
  private HttpFleet http;

  private FleetEndpoint(FleetApi fleet, ClientManager manager, SerializerRegistry registry,
      ScheduledExecutorService timer, Traffic traffic, InboundBudget inbound) {
    this.fleet = fleet;
    long id;
    SecureRandom random = new SecureRandom();
    do {
      id = random.nextLong() & Long.MAX_VALUE;
    } while (id == 0);
    this.runId = id;
    FlowerApp app = fleet.app();
    this.service = new FleetService(manager, new FleetService.RunInfo(runId, app.fabId(),
        app.version(), app.hash(), app.fab(), scalars(fleet.runConfig())),
        new MessageApi(registry, fleet.secAggPlus().isPresent()), fleet.limits(), timer, traffic,
        inbound, fleet.authorizedKeys().map(FleetEndpoint::der));
    this.sweep = timer.scheduleAtFixedRate(service::sweep, 1, 1, TimeUnit.SECONDS);
  }

  /**
   * Serves {@code fleet}'s transport at its address, its nodes joining {@code manager}; the
   * timer runs the sweep and the service's timeouts; large replies wait for {@code inbound}
   * (the budget the server's Join streams share).
   *
   * @throws IOException if the address cannot be bound or a TLS file is unusable
   */
  public static FleetEndpoint start(FleetApi fleet, ClientManager manager,
      SerializerRegistry registry, ScheduledExecutorService timer, Traffic traffic,
      InboundBudget inbound) throws IOException {
    FleetEndpoint e = new FleetEndpoint(fleet, manager, registry, timer, traffic, inbound);
    String where = fleet.host() + ":" + fleet.port();
    try {
      switch (fleet.transport()) {
        // Bodies in flight get as much room as the replies read ahead.
        case HTTP -> e.http = HttpFleet.start(fleet.host(), fleet.port(), e.service,
            fleet.limits(), fleet.tls(), inbound.capacity());
        case GRPC_RERE -> {
          ServerBuilder<?> b = GrpcServers.netty(fleet.host(), fleet.port(), fleet.tls());
          b.maxInboundMessageSize(fleet.limits().maxObjectBytes() + (1 << 20));
          GrpcFleet.serve(b, e.service);
          e.grpc = b.build().start();
        }
      }
    } catch (IOException | RuntimeException ex) {
      e.sweep.cancel(false);
      if (ex instanceof IOException io) {
        throw new IOException("cannot serve the Fleet API on " + where + ": " + io.getMessage(),
            io);
      }
      throw ex;
    }
    LOG.info("Fleet API ({}) listening on {}:{} serving {}; run {}", fleet.transport(),
        fleet.host(), e.port(), fleet.app(), Long.toUnsignedString(e.runId));
    return e;
  }

  /** The port of the Fleet API (useful with port 0). */
  public int port() {
    return http != null ? http.port() : grpc.getPort();
  }

  /** The run id SuperNodes are told. */
  public long runId() {
    return runId;
  }

  /** The gRPC server of a grpc-rere endpoint, to stop with the caller's others; null for HTTP. */
  public Server grpcServer() {
    return grpc;
  }

  /** Takes every node offline, stops the sweep and closes an HTTP transport. */
  public void endNodes() {
    sweep.cancel(false);
    service.endAll();
    if (http != null) {
      http.close();
    }
  }

  /** Stops the transport at once (a start that failed part way elsewhere). */
  public void stopNow() {
    sweep.cancel(false);
    if (http != null) {
      http.close();
    }
    if (grpc != null) {
      grpc.shutdownNow();
    }
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
}
