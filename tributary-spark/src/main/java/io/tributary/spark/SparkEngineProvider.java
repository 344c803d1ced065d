package io.tributary.spark;

import io.tributary.simulation.Engine;
import io.tributary.simulation.EngineProvider;
import io.tributary.simulation.SettingsCodec;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.ClusterEngine;
import io.tributary.simulation.engine.EngineUnavailableException;
import io.tributary.simulation.engine.Invocation;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.Supplier;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Spark's {@link EngineProvider}: {@code --engine local[N]} (Spark in this JVM) and {@code
 * spark://HOST:PORT} (a standalone cluster), found by the simulation with {@link
 * java.util.ServiceLoader}. It checks the master can be reached, starts a Spark application
 * ({@link SparkSettings}) and waits for its first executor, so that a cluster that cannot run the
 * application fails here with one line instead of in the first round.
 */
public final class SparkEngineProvider implements EngineProvider {
  /** How long a reachable master gets to accept the application before a 5 s connect fails. */
  private static final int CONNECT_MILLIS = 5_000;

  @Override
  public boolean runs(Engine.Cluster engine) {
    return engine.master().startsWith("local[") || engine.master().startsWith("spark://");
  }

  @Override
  public ClusterEngine start(Engine.Cluster engine, SimulationSettings settings,
      Supplier<Invocation> current) {
    byte[] encoded = SettingsCodec.encode(settings);
    if (engine.master().startsWith("spark://")) {
      checkMaster(engine);
    }
    SparkSettings conf = SparkSettings.of(engine);
    JavaSparkContext spark = startContext(engine.master(), conf.spark());
    try {
      Executors.await(spark, engine.master(), conf);
    } catch (EngineUnavailableException e) {
      spark.stop();
      throw e;
    }
    return new SparkPassEngine(spark, encoded, current, engine.partitions(),
        conf.combinedParts());
  }

  private static JavaSparkContext startContext(String master, SparkConf conf) {
    try {
      return newContext(conf);
    } catch (SparkException | IllegalArgumentException e) {
      throw new EngineUnavailableException("Spark could not start an application on " + master
          + ": " + SparkPassEngine.firstLine(e.getMessage()), e);
    }
  }

  /** Spark throws SparkException without declaring it (Scala). */
  private static JavaSparkContext newContext(SparkConf conf) throws SparkException {
    return new JavaSparkContext(conf);
  }

  /**
   * Fails at once, with the address, when no Spark master answers at a standalone URL's first
   * host: nothing listens, or what listens does not speak Spark's RPC ({@link MasterProbe}).
   * With authentication or encryption on, which the probe does not speak, only the connection is
   * checked.
   */
  private static void checkMaster(Engine.Cluster engine) {
    String hostPort = engine.master().substring("spark://".length()).split(",")[0];
    int colon = hostPort.lastIndexOf(':');
    String host = hostPort.substring(0, colon);
    int port = Integer.parseInt(hostPort.substring(colon + 1));
    if (port < 1 || port > 65_535) {
      throw new EngineUnavailableException("the Spark master's port must be 1 to 65535, got "
          + port + " in " + engine.master());
    }
    boolean secured = java.util.stream.Stream.of("spark.authenticate",
        "spark.network.crypto.enabled", "spark.ssl.rpc.enabled", "spark.ssl.enabled")
        .anyMatch(k -> "true".equalsIgnoreCase(engine.settings().getOrDefault(k, "").strip()));
    if (!secured) {
      MasterProbe.check(host, port, CONNECT_MILLIS);
      return;
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), CONNECT_MILLIS);
    } catch (IOException e) {
      throw new EngineUnavailableException("cannot reach the Spark master at " + host + ":"
          + port + " (" + e.getMessage() + "); start one with tributary spark-cluster start,"
          + " or check the URL", e);
    }
  }
}
