package io.tributary.spark;

import io.tributary.graph.local.GraphBindingException;
import io.tributary.simulation.SettingsCodec;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.engine.WorkerReplica;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulations an executor JVM has rebuilt, by the hash of their encoded settings: loading the
 * data and binding the model once per executor, not once per task.
 *
 * <p>The one static mutable state of Tributary: a Spark task is a static entry point with no
 * other place to keep what it built. It is bounded ({@link #CAPACITY} simulations, the least
 * recently used dropped and its runtime closed) and holds nothing but what the settings
 * determine, so a task sees the same clients whether it finds an entry or builds one.
 */
final class WorkerReplicas {
  /** Simulations kept per executor: a driver runs one at a time; two cover a change-over. */
  static final int CAPACITY = 2;

  private static final Map<String, WorkerReplica> CACHE = new LinkedHashMap<>(4, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, WorkerReplica> eldest) {
      if (size() > CAPACITY) {
        eldest.getValue().close();
        return true;
      }
      return false;
    }
  };

  private WorkerReplicas() {}

  /**
   * The replica of {@code job}'s simulation, built on first use.
   *
   * @throws WorkerDataException when the worker cannot load the data or bind the model
   */
  static synchronized WorkerReplica of(PassJob job) {
    WorkerReplica r = CACHE.get(job.settingsKey());
    if (r == null) {
      r = build(SettingsCodec.decode(job.settings()));
      CACHE.put(job.settingsKey(), r);
    }
    return r;
  }

  private static WorkerReplica build(SimulationSettings settings) {
    try {
      return WorkerReplica.rebuild(settings);
    } catch (IOException e) {
      throw new WorkerDataException("the worker cannot load the clients' data ("
          + settings.dataset() + "): " + e.getMessage(), e);
    } catch (GraphBindingException e) {
      throw new WorkerDataException("the worker cannot bind the model: " + e.getMessage(), e);
    }
  }
}
