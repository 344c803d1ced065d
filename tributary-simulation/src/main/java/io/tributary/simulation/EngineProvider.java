package io.tributary.simulation;

import io.tributary.simulation.engine.ClusterEngine;
import io.tributary.simulation.engine.EngineUnavailableException;
import io.tributary.simulation.engine.Invocation;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * A cluster engine's entry point, found with {@link ServiceLoader} so that the simulation does not
 * depend on the engine's jars: tributary-spark provides the one for Spark's master URLs.
 */
public interface EngineProvider {
  /** Whether this provider runs {@code engine} (Spark's: {@code local[N]} and {@code spark://}). */
  boolean runs(Engine.Cluster engine);

  /**
   * Starts {@code engine} for a simulation with {@code settings}; {@code current} tells, while a
   * pass runs, which invocation it belongs to.
   *
   * @throws EngineUnavailableException when the engine cannot start (one line naming the cause)
   * @throws IllegalArgumentException when the settings cannot run on the engine
   */
  ClusterEngine start(Engine.Cluster engine, SimulationSettings settings,
      Supplier<Invocation> current);

  /**
   * Starts {@code engine} with the first provider on the class path that runs it.
   *
   * @throws EngineUnavailableException when no provider runs it, or it cannot start
   */
  static ClusterEngine startFor(Engine.Cluster engine, SimulationSettings settings,
      Supplier<Invocation> current) {
    for (EngineProvider p : ServiceLoader.load(EngineProvider.class)) {
      if (p.runs(engine)) {
        return p.start(engine, settings, current);
      }
    }
    throw new EngineUnavailableException("the engine " + engine.master() + " needs "
        + "tributary-spark on the class path: add it to the application's dependencies (the "
        + "./tributary launcher adds it once it is built)");
  }
}
