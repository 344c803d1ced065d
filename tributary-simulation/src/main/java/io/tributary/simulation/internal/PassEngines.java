package io.tributary.simulation.internal;

import io.tributary.runtime.PassEngine;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.simulation.engine.EngineUnavailableException;

/**
 * The one place the simulation hands a {@link PassEngine} to the runtime. Not an API.
 *
 * <p>AFTER-MERGE: the runtime's {@code RuntimeOptions.withPassEngine(PassEngine)} is being written
 * on another branch; once it is merged, {@link #with} becomes {@code return
 * options.withPassEngine(engine);} and cluster engines run.
 */
final class PassEngines {
  private PassEngines() {}

  /**
   * {@code options} with client passes computed by {@code engine}.
   *
   * @throws EngineUnavailableException until the runtime's side is merged
   */
  static RuntimeOptions with(RuntimeOptions options, PassEngine engine) {
    throw new EngineUnavailableException("cluster engines need the runtime's PassEngine "
        + "support (RuntimeOptions.withPassEngine), which this build does not have yet");
  }
}
