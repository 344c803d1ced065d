package io.tributary.flower.server;

import io.tributary.core.values.StructValue;
import java.util.Map;

/**
 * Fit-config entries that follow the server state, computed before each round ({@link
 * ServerConfig.Builder#roundFitConfig}); they win over the fixed entries.
 */
@FunctionalInterface
public interface RoundFitConfig {
  /**
   * The entries for the round that starts from {@code state}, the algorithm's server state
   * {@code <model=M[,optimizer=O][,aggregator=A]>}.
   */
  Map<String, io.tributary.flower.Scalar> of(StructValue state);

  /** No entries. */
  static RoundFitConfig none() {
    return state -> Map.of();
  }
}
