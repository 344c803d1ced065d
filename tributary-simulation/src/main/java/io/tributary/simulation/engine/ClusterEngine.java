package io.tributary.simulation.engine;

import io.tributary.runtime.PassEngine;

/**
 * A cluster engine started for one simulation: it computes the client passes the runtime hands
 * it, and {@link #close()} stops whatever it started (a Spark application, its executors).
 */
public interface ClusterEngine extends PassEngine, AutoCloseable {
  /** Stops the engine; the simulation calls it once, after the last round or a failure. */
  @Override
  void close();
}
