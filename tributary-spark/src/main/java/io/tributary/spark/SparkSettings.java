package io.tributary.spark;

import io.tributary.simulation.Engine;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * The Spark configuration of a simulation's application: the engine's settings over Tributary's
 * defaults, and the settings that are Tributary's ({@value #START_TIMEOUT},
 * {@value #COMBINED_PARTS}).
 *
 * <p>Defaults: no web UI; the driver on 127.0.0.1 when the master is on this machine; for a
 * master on this machine, the executors get this JVM's class path ({@code
 * spark.executor.extraClassPath}: they run on the same disk); for another machine, {@code
 * spark.jars} ships this class path's Tributary jars unless the settings name the jars.
 *
 * @param spark the configuration of the application
 * @param startTimeout how long the application waits for its first executor
 * @param combinedParts the parts the executors combine each pass into, or 0 for one per executor
 */
record SparkSettings(SparkConf spark, Duration startTimeout, int combinedParts) {
  /** The engine setting that bounds the wait for the first executor, in seconds (default 60). */
  static final String START_TIMEOUT = "tributary.startTimeout";
  /**
   * The engine setting that says into how many parts the executors combine each pass before the
   * driver receives them (default: as many as the application's executors).
   */
  static final String COMBINED_PARTS = "tributary.combinedParts";

  /**
   * The configuration for {@code engine}.
   *
   * @throws IllegalArgumentException when {@value #START_TIMEOUT} or {@value #COMBINED_PARTS}
   *     is not a positive number
   */
  static SparkSettings of(Engine.Cluster engine) {
    SparkConf conf = new SparkConf().setMaster(engine.master()).setAppName("tributary simulate")
        .set("spark.ui.enabled", "false");
    boolean here = engine.master().startsWith("local[")
        || engine.master().startsWith("spark://127.0.0.1:")
        || engine.master().startsWith("spark://localhost:");
    if (here) {
      conf.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
          .set("spark.executor.extraClassPath", System.getProperty("java.class.path"));
    } else {
      List<String> jars = tributaryJars();
      if (!jars.isEmpty()) {
        conf.set("spark.jars", String.join(",", jars));
      }
    }
    Duration timeout = Duration.ofSeconds(60);
    int combined = 0;
    for (Map.Entry<String, String> e : engine.settings().entrySet()) {
      if (e.getKey().equals(START_TIMEOUT)) {
        timeout = Duration.ofSeconds(positive(START_TIMEOUT, e.getValue(), "seconds"));
      } else if (e.getKey().equals(COMBINED_PARTS)) {
        combined = (int) Math.min(Integer.MAX_VALUE, positive(COMBINED_PARTS, e.getValue(),
            "parts"));
      } else {
        conf.set(e.getKey(), e.getValue());
      }
    }
    return new SparkSettings(conf, timeout, combined);
  }

  private static long positive(String key, String value, String unit) {
    try {
      long s = Long.parseLong(value.strip());
      if (s > 0) {
        return s;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
    throw new IllegalArgumentException(key + " must be a positive number of " + unit + ", got '"
        + shown + "'");
  }

  /** The jars of this JVM's class path whose names start with {@code tributary}. */
  private static List<String> tributaryJars() {
    List<String> out = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = new File(entry).getName();
      if (name.startsWith("tributary") && name.endsWith(".jar")) {
        out.add(new File(entry).getAbsolutePath());
      }
    }
    return out;
  }
}
