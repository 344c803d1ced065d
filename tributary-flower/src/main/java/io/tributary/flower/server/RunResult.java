package io.tributary.flower.server;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.tensor.Tensor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;

/**
 * The outcome of {@link FlowerServer#run}: every round's metrics and the final model.
 *
 * @param rounds one entry per round, in order, each {@link RoundRecord.EvaluationKind#FEDERATED}
 * @param finalParameters the model after the last round, named as the initial parameters were
 *     (numpy's {@code arr_0}, {@code arr_1}, ... when they came from a client)
 */
public record RunResult(List<RoundRecord> rounds,
    SequencedMap<String, Tensor> finalParameters) {
  public RunResult {
    rounds = List.copyOf(rounds);
    finalParameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(finalParameters));
  }
}
