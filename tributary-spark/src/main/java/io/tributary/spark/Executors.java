package io.tributary.spark;

import io.tributary.simulation.engine.EngineUnavailableException;
import org.apache.spark.api.java.JavaSparkContext;

/** Waits for a new Spark application's first executor, or says why none came. */
final class Executors {
  private static final long POLL_MILLIS = 100;

  private Executors() {}

  /**
   * Returns once {@code spark} has an executor (at once in {@code local[N]}).
   *
   * @throws EngineUnavailableException when the application was stopped (the master refused or
   *     dropped it) or no executor started within the start timeout
   */
  static void await(JavaSparkContext spark, String master, SparkSettings conf) {
    if (master.startsWith("local[")) {
      return;
    }
    long deadline = System.nanoTime() + conf.startTimeout().toNanos();
    while (true) {
      if (spark.sc().isStopped()) {
        throw new EngineUnavailableException("the Spark master at " + master + " stopped the "
            + "application before an executor started (is it a Spark 4.1 master, and are its "
            + "workers alive?)");
      }
      // The driver counts as one.
      if (spark.sc().statusTracker().getExecutorInfos().length > 1) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new EngineUnavailableException("no executor started on " + master + " within "
            + conf.startTimeout().toSeconds() + " s: the cluster may lack the free cores or the "
            + "memory asked (spark.executor.memory=" + conf.spark().get("spark.executor.memory",
            "1g") + ", spark.executor.cores=" + conf.spark().get("spark.executor.cores", "all")
            + "); see the master's web UI and the workers' logs");
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EngineUnavailableException("interrupted while waiting for Spark's executors",
            e);
      }
    }
  }
}
