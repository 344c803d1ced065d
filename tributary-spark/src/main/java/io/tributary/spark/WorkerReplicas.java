package io.tributary.spark;

import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.models.Model;
import io.tributary.runtime.ExecutionContext;
import io.tributary.simulation.SettingsCodec;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.internal.RunParts;
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

  private static final Map<String, Replica> CACHE = new LinkedHashMap<>(4, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Replica> eldest) {
      if (size() > CAPACITY) {
        eldest.getValue().context().close();
        return true;
      }
      return false;
    }
  };

  private WorkerReplicas() {}

  /**
   * A simulation rebuilt on this executor: its parts and a runtime of its options.
   *
   * @param parts the process and the cohorts, built as the driver built them
   * @param context the runtime that computes the pass parts
   */
  record Replica(RunParts parts, ExecutionContext context) {}

  /**
   * The replica of {@code job}'s simulation, built on first use.
   *
   * @throws WorkerDataException when the worker cannot load the data or bind the model
   */
  static synchronized Replica of(PassJob job) {
    Replica r = CACHE.get(job.settingsKey());
    if (r == null) {
      r = build(SettingsCodec.decode(job.settings()));
      CACHE.put(job.settingsKey(), r);
    }
    return r;
  }

  private static Replica build(SimulationSettings settings) {
    SimulationData data;
    try {
      data = SimulationData.load(settings);
    } catch (IOException e) {
      throw new WorkerDataException("the worker cannot load the clients' data ("
          + settings.dataset() + "): " + e.getMessage(), e);
    }
    Model model = settings.model().build(data.name(), data.exampleShape(), data.numClasses());
    try {
      RunParts parts = new RunParts(settings, data, model);
      return new Replica(parts, ExecutionContext.create(parts.options()));
    } catch (GraphBindingException e) {
      throw new WorkerDataException("the worker cannot bind the model: " + e.getMessage(), e);
    }
  }
}
