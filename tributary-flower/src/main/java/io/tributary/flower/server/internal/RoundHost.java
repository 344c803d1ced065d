package io.tributary.flower.server.internal;

import io.grpc.Server;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RunStop;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What every Tributary server that runs Flower clients' rounds shares, whichever endpoints they
 * join through ({@code FlowerServer}: Join; {@code FleetServer}: the Fleet API and Join): the
 * connected clients, the traffic counters, the round loop over them, the request to stop after a
 * round, and the shutdown order (Join clients told to disconnect, then the endpoints stopped
 * within the shutdown grace).
 */
public final class RoundHost {
  private final ServerConfig config;
  private final SerializerRegistry registry;
  private final ClientManager manager = new ClientManager();
  private final Traffic traffic = new Traffic();
  private final RunStop stop = new RunStop();
  private final java.util.Optional<SecureFit> secure;
  private final io.tributary.flower.server.SecureAggregation securePasses;

  public RoundHost(ServerConfig config, SerializerRegistry registry) {
    this(config, registry, java.util.Optional.empty());
  }

  /**
   * A host whose fit rounds are {@code secure}'s rounds when given, rather than those of the
   * configuration's {@link io.tributary.flower.server.SecureFitProtocol}.
   */
  public RoundHost(ServerConfig config, SerializerRegistry registry,
      java.util.Optional<SecureFit> secure) {
    this(config, registry, secure, config.secureAggregation().orElse(
        io.tributary.flower.server.SecureAggregation.defaults()));
  }

  /**
   * A host as above whose secure passes (a computation that sums securely, run on the nodes)
   * run SecAgg+ rounds with {@code securePasses}' neighbours and threshold.
   */
  public RoundHost(ServerConfig config, SerializerRegistry registry,
      java.util.Optional<SecureFit> secure,
      io.tributary.flower.server.SecureAggregation securePasses) {
    this.config = Objects.requireNonNull(config, "config");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.secure = Objects.requireNonNull(secure, "secure");
    this.securePasses = Objects.requireNonNull(securePasses, "securePasses");
  }

  public ServerConfig config() {
    return config;
  }

  public SerializerRegistry registry() {
    return registry;
  }

  public ClientManager manager() {
    return manager;
  }

  public Traffic traffic() {
    return traffic;
  }

  /** The ids of the connected clients, in the order they came. */
  public List<String> connectedClients() {
    return manager.all().stream().map(RemoteClient::id).toList();
  }

  /** Waits for the clients, gets the initial model and runs every round. */
  public RunResult run(RoundListener listener) throws FlowerServerException,
      InterruptedException {
    return new RoundRunner(config, manager, traffic, registry, secure, securePasses)
        .run(listener, stop);
  }

  /** Asks the run to stop after the round in progress, for {@code why}, from any thread. */
  public void stop(String why) {
    stop.request(why);
  }

  /**
   * Tells the Join clients to disconnect (waiting up to the shutdown grace), then runs
   * {@code beforeServers}, stops {@code servers} (nulls skipped) and runs {@code last}, these
   * three even when interrupted (the interrupt is kept).
   */
  public void shutDown(Runnable beforeServers, List<Server> servers, Runnable last) {
    boolean interrupted = false;
    try {
      Shutdown.disconnectAll(manager, config.shutdownGrace());
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      try {
        beforeServers.run();
        for (Server s : servers) {
          if (s != null) {
            interrupted |= stopServer(s, config.shutdownGrace(), interrupted);
          }
        }
      } finally {
        last.run();
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * Stops {@code s}: at once when {@code now}, else letting its calls end within {@code grace}.
   *
   * @return whether the wait was interrupted
   */
  public static boolean stopServer(Server s, Duration grace, boolean now) {
    if (now) {
      s.shutdownNow();
      return false;
    }
    s.shutdown();
    try {
      if (!s.awaitTermination(grace.toMillis() + 100, TimeUnit.MILLISECONDS)) {
        s.shutdownNow();
      }
      return false;
    } catch (InterruptedException e) {
      s.shutdownNow();
      return true;
    }
  }
}
