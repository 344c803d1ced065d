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
 * defaults, and the one setting that is Tributary's ({@value #START_TIMEOUT}).
 *
 * <p>Defaults: no web UI; the driver on 127.0.0.1 when the master is on this machine; for a
 * master on this machine, the executors get this JVM's class path ({@code
 * spark.executor.extraClassPath}: they run on the same disk); for another machine, {@code
 * spark.jars} ships this class path's Tributary jars unless the settings name the jars.
 *
 * @param spark the configuration of the application
 * @param startTimeout how long the application waits for its first executor
 */
record SparkSettings(SparkConf spark, Duration startTimeout) {
  /** The engine setting that bounds the wait for the first executor, in seconds (default 60). */
  static final String START_TIMEOUT = "tributary.startTimeout";

  /**
   * The configuration for {@code engine}.
   *
   * @throws IllegalArgumentException when {@value #START_TIMEOUT} is not a positive number
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
    for (Map.Entry<String, String> e : engine.settings().entrySet()) {
      if (e.getKey().equals(START_TIMEOUT)) {
        timeout = seconds(e.getValue());
      } else {
        conf.set(e.getKey(), e.getValue());
      }
    }
    return new SparkSettings(conf, timeout);
  }

  private static Duration seconds(String value) {
    try {
      long s = Long.parseLong(value.strip());
      if (s > 0) {
        return Duration.ofSeconds(s);
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(START_TIMEOUT + " must be a positive number of seconds, "
        + "got '" + value + "'");
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
