package io.tributary.learning.rounds;

import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A run that has ended, completed or stopped, as a {@link RoundListener} is told it in {@link
 * RoundListener#finished}: on a simulation and on a Flower server alike.
 */
public interface RunEnd {
  /** Every round finished, those before a resume included (where known), in order. */
  List<RoundRecord> rounds();

  /** The final model, by name; empty when the run stopped on a failure. */
  Optional<SequencedMap<String, Tensor>> finalParameters();

  /** One sentence on how the run ended, such as {@code completed 10 rounds}. */
  String outcome();
}
