package io.tributary.simulation;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A simulation that has ended, completed or stopped.
 *
 * @param settings every setting of the run
 * @param history every round finished, those before a resume included
 * @param finalParameters the final global model, present when the run completed or was stopped
 *     between rounds on request
 * @param outcome one sentence on how the run ended, such as {@code Completed 30 rounds in 4.2 s.}
 */
public record SimulationEnd(SimulationSettings settings, History history,
    Optional<SequencedMap<String, Tensor>> finalParameters, String outcome) implements RunEnd {
  /** Every round finished, those before a resume included: {@link #history}'s rounds. */
  @Override
  public List<RoundRecord> rounds() {
    return history.rounds();
  }

  /** Whether every round ran. */
  public boolean completed() {
    return finalParameters.isPresent() && history.rounds().size() == settings.rounds();
  }

  /** The report's title: the algorithm, the data, the model and the clients. */
  public String title() {
    return settings.algorithm().name() + " on " + settings.dataset() + " ("
        + settings.model().cliName() + ", " + settings.clients() + " clients)";
  }
}
