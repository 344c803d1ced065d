package io.tributary.simulation;

import io.tributary.graph.models.Model;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunStart;
import java.util.List;
import java.util.SequencedMap;

/**
 * A simulation about to run its first round.
 *
 * @param settings every setting of the run
 * @param data the clients' training data and the test data
 * @param model the network the clients train
 * @param firstRound the first round to run: 1, or the round after the checkpoint of a resumed run
 * @param earlier the rounds a resumed run had finished before it stopped (empty for a new run)
 */
public record SimulationStart(SimulationSettings settings, SimulationData data, Model model,
    int firstRound, History earlier) implements RunStart {
  /** The rounds a resumed run had finished before it stopped: {@link #earlier}'s rounds. */
  @Override
  public List<RoundRecord> previous() {
    return earlier.rounds();
  }

  /** The settings as the report shows them: {@code settings().display()}. */
  @Override
  public SequencedMap<String, String> settingsDisplay() {
    return settings.display();
  }

  /** The report's title: the algorithm, the data, the model and the clients. */
  @Override
  public String title() {
    return settings.algorithm().cliName() + " on " + settings.dataset() + " ("
        + settings.model().cliName() + ", " + settings.clients() + " clients)";
  }

  /** Whether the run goes on from a checkpoint rather than from round 1. */
  public boolean resumed() {
    return firstRound > 1;
  }
}
