package io.tributary.learning.rounds;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Told about every finished round, with the model after it (to log, print or checkpoint): the one
 * round listener of every binding. The Flower server calls it after each round; a simulation's
 * listeners ({@code io.tributary.simulation.SimulationListener}) are round listeners that are
 * told when the run starts and ends as well, so a listener written for one binding serves both.
 */
@FunctionalInterface
public interface RoundListener {
  /**
   * Called on the thread that runs the rounds, after each round.
   *
   * @param metrics what the round measured: a {@link RoundRecord.EvaluationKind#CENTRAL} record
   *     in a simulation, a {@link RoundRecord.EvaluationKind#FEDERATED} one on a server (write it
   *     as a line of {@code metrics.jsonl} with {@code RoundJson.toJson})
   * @param parameters the model after the round, named as the initial parameters were
   * @throws IOException to stop the run
   */
  void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
      throws IOException;

  /**
   * Called after each round with the server optimizer's state as well, for a listener that
   * checkpoints it; by default calls {@link #roundEnded(RoundRecord, SequencedMap)}.
   *
   * @param updater the optimizer's state after the round; empty for an algorithm that keeps none
   * @throws IOException to stop the run
   */
  default void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    roundEnded(metrics, parameters);
  }
}
