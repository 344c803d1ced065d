package io.tributary.cli;

import io.tributary.learning.SettingException;
import io.tributary.simulation.SimulationSettings;
import java.util.Map;

/**
 * The one table from the library's names of simulate's settings to the command line's flags, so
 * that a problem the library names ({@code clientsPerRound must be in [1, 10]}) reaches the user
 * with the flag they typed ({@code --clients-per-round must be in [1, 10]}).
 */
final class SimulateFlags {
  private SimulateFlags() {}

  private static final Map<String, String> FLAGS = Map.ofEntries(
      Map.entry("algorithm", "--algorithm"), Map.entry("dataset", "--dataset"),
      Map.entry("dataDir", "--data-dir"), Map.entry("partition", "--partition"),
      Map.entry("model", "--model"), Map.entry("clients", "--clients"),
      Map.entry("clientsPerRound", "--clients-per-round"), Map.entry("rounds", "--rounds"),
      Map.entry("localEpochs", "--local-epochs"), Map.entry("batchSize", "--batch-size"),
      Map.entry("learningRate", "--lr"), Map.entry("mu", "--mu"),
      Map.entry("byzantine", "--byzantine"), Map.entry("seed", "--seed"),
      Map.entry("threads", "--threads"), Map.entry("checkpointEvery", "--checkpoint-every"),
      Map.entry("out", "--out"), Map.entry("dp", "--dp"),
      Map.entry("dp.secure", "--secure-aggregation"),
      Map.entry("dpTargetEpsilon", "--target-epsilon"),
      Map.entry("clientOptimizer", "--client-optimizer"),
      Map.entry("clientMetrics", "--client-metric"), Map.entry("engine", "--engine"),
      Map.entry("partitions", "--partitions"), Map.entry("edges", "--edges"),
      Map.entry("dpAt", "--dp-at"), Map.entry("dp_at", "--dp-at"),
      Map.entry("edge_rounds", "--edge-rounds"));

  /**
   * The message of {@code e} in flags: each setting the library names, and for a refused
   * {@code dp}, its components ({@code noiseMultiplier} is {@code --noise-multiplier}).
   */
  static String render(SettingException e) {
    String text = e.render(SimulateFlags::flag);
    return e.setting().equals("dp") || e.setting().equals("dpTargetEpsilon")
        ? DpFlags.render(text) : text;
  }

  /**
   * The flag of the setting the library calls {@code setting}; a client optimizer's
   * hyperparameter ({@code clientOptimizer.beta1}) is {@code --client-beta1}.
   */
  static String flag(String setting) {
    if (setting.startsWith(SimulationSettings.HYPERPARAMETER)) {
      return SimulationSettings.hyperparameterFlag(setting.substring(
          SimulationSettings.HYPERPARAMETER.length()));
    }
    if (setting.startsWith("clientOptimizer.")) {
      return SimulationSettings.clientFlag(setting.substring("clientOptimizer.".length()));
    }
    String flag = FLAGS.get(setting);
    if (flag == null) {
      // A setting without a flag of its own is set with --set KEY=VALUE.
      return "--set " + io.tributary.simulation.SettingsSchema.keyOf(setting);
    }
    return flag;
  }
}
