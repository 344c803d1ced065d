package io.tributary.flower.server;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.Optional;
import java.util.SequencedMap;

/** Told about every finished round, with the model after it (to log, print or checkpoint). */
@FunctionalInterface
public interface RoundListener {
  /**
   * Called on the server's thread after each round.
   *
   * @param metrics what the round measured, a {@link RoundRecord.EvaluationKind#FEDERATED} record
   *     (write it as a line of {@code metrics.jsonl} with {@code RoundJson.toJson})
   * @param parameters the model after the round, named as the initial parameters were
   * @throws IOException to stop the run, which then fails with a {@link FlowerServerException}
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
