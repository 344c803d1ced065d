package io.tributary.learning.rounds;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.SequencedMap;

/**
 * What a binding makes of a round the {@link RoundLoop} ran: the figures its listeners are told
 * and the model named as its initial parameters were. The simulator scores the model centrally;
 * a server reports what its clients evaluated. Everything else about a run (the loop over rounds,
 * the listener's events, stopping, the outcome) is {@link RunLoop}'s, the same for every binding.
 */
public interface RoundRecorder {
  /** The figures of the round {@code report} describes. */
  RoundRecord record(RoundReport report);

  /** The global model of {@code state} (the round's server state), by parameter name. */
  SequencedMap<String, Tensor> parameters(StructValue state);
}
