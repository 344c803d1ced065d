package io.tributary.simulation;

import io.tributary.learning.SettingException;
import java.nio.charset.StandardCharsets;

/**
 * The settings a cluster engine's worker needs to rebuild a simulation, as bytes: the run's
 * {@code config.json} ({@link SimulationSettings#toJson}), so that workers read the same schema
 * a resumed run reads and a setting added to it reaches them without further code. Workers
 * ignore the output directory and the engine (a worker writes nothing and runs locally).
 */
public final class SettingsCodec {
  private SettingsCodec() {}

  /**
   * Encodes {@code s}.
   *
   * @throws IllegalArgumentException when a setting cannot be sent to workers: an algorithm
   *     composed in code that no registered spec built, data given
   *     in code ({@link DatasetSpec.Provided}), or
   *     differential privacy over SecAgg+ (a secure sum runs among the clients of one process)
   */
  public static byte[] encode(SimulationSettings s) {
    if (!RunAlgorithm.registered(s.algorithm())) {
      throw new SettingException("engine", "an algorithm composed in code "
          + "cannot run on a cluster engine: its workers rebuild the algorithm from the settings, "
          + "which name registered algorithms only (register it as an AlgorithmSpec); use "
          + "{engine} local");
    }
    if (s.dataset() instanceof DatasetSpec.Provided p) {
      throw new SettingException("engine", "data given in code (" + p + ") cannot run on a "
          + "cluster engine: its workers read the data themselves, from a file the settings "
          + "name; write them as csv:, parquet: or npz-dir: files, or use {engine} local");
    }
    if (s.get(SettingsSchema.MODEL_CODE) != null) {
      throw new SettingException("engine", "a model built in code (" + s.modelName() + ") "
          + "cannot run on a cluster engine: its workers read the model themselves, from a file "
          + "the settings name; save it as a model.zip (UserModel.write) and give that, or use "
          + "{engine} local");
    }
    if (s.dp().flatMap(io.tributary.privacy.aggregation.DpSettings::secure).isPresent()) {
      throw new SettingException("dp.secure", "{dp.secure} does not run on a cluster engine: "
          + "SecAgg+ needs every client of a round in one process; use {engine} local");
    }
    return s.withOut(null).withEngine(Engine.LOCAL).toJson().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Decodes what {@link #encode} wrote: the settings, without an output directory, on {@link
   * Engine#LOCAL}.
   *
   * @throws IllegalArgumentException when the bytes are not settings this Tributary reads, naming
   *     the key at fault (the driver and the workers must run the same Tributary)
   */
  public static SimulationSettings decode(byte[] encoded) {
    try {
      return SimulationSettings.fromJson(new String(encoded, StandardCharsets.UTF_8));
    } catch (SettingsFileException e) {
      throw new IllegalArgumentException("the settings sent to the workers: " + e.getMessage(),
          e);
    }
  }
}
