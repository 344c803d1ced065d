package io.tributary.simulation;

import io.tributary.learning.SettingException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where a simulation's client work runs ({@code tributary simulate --engine}): this JVM's threads
 * ({@link Local}, the default), or a cluster such as Spark's ({@link Cluster}). The results are
 * the same bits on every engine: an engine only decides where each group of clients is computed,
 * and the runtime merges the groups with the same reduction tree.
 */
public sealed interface Engine {
  /** This JVM's threads, {@code --threads} of them. */
  Local LOCAL = new Local();

  /** This JVM's threads. */
  record Local() implements Engine {
    @Override
    public String toString() {
      return "local";
    }
  }

  /**
   * A cluster engine, found on the class path through {@link EngineProvider} (tributary-spark
   * for Spark's master URLs).
   *
   * @param master the master URL: {@code spark://HOST:PORT}, or {@code local[N]} for Spark in
   *     this JVM with N threads
   * @param settings the engine's own settings, such as Spark's {@code spark.executor.memory}
   * @param partitions the parts each pass is cut into, or 0 for the engine's default (Spark's
   *     default parallelism)
   */
  record Cluster(String master, Map<String, String> settings, int partitions) implements Engine {
    private static final Pattern MASTER = Pattern.compile(
        "local\\[([1-9][0-9]{0,3}|\\*)]|spark://[A-Za-z0-9.\\-]+:[0-9]{1,5}(,[A-Za-z0-9.\\-]+:[0-9]{1,5})*");

    /**
     * Checks the master URL and the partition count.
     *
     * @throws IllegalArgumentException naming the setting ({@code engine} or {@code partitions})
     */
    public Cluster {
      Objects.requireNonNull(master, "master");
      if (!MASTER.matcher(master).matches()) {
        throw new SettingException("engine", "{engine} must be local, local[N] or "
            + "spark://HOST:PORT, got '" + master + "'");
      }
      settings = Collections.unmodifiableSortedMap(new TreeMap<>(settings));
      if (partitions < 0 || partitions > SimulationSettings.MAX_CLIENTS) {
        throw new SettingException("partitions", "{partitions} must be in [0, "
            + SimulationSettings.MAX_CLIENTS + "] (0: the engine's default), got " + partitions);
      }
    }

    @Override
    public String toString() {
      return master;
    }
  }

  /**
   * Reads an {@code --engine} value: {@code local}, {@code local[N]} or {@code spark://HOST:PORT}.
   *
   * @throws IllegalArgumentException naming the value and the forms there are
   */
  static Engine parse(String text, int partitions) {
    if (text.equals("local")) {
      if (partitions != 0) {
        throw new SettingException("partitions", "{partitions} applies only to a "
            + "cluster engine ({engine} local[N] or spark://HOST:PORT)");
      }
      return LOCAL;
    }
    return new Cluster(text, Map.of(), partitions);
  }
}
