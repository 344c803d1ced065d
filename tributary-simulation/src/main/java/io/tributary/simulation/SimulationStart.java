package io.tributary.simulation;

import io.tributary.graph.models.Model;

/**
 * A simulation about to run its first round.
 *
 * @param settings every setting of the run
 * @param data the clients' training data and the test data
 * @param model the network the clients train
 * @param firstRound the first round to run: 1, or the round after the checkpoint of a resumed run
 * @param previous the rounds a resumed run had finished before it stopped (empty for a new run)
 */
public record SimulationStart(SimulationSettings settings, SimulationData data, Model model,
    int firstRound, History previous) {
  /** Whether the run goes on from a checkpoint rather than from round 1. */
  public boolean resumed() {
    return firstRound > 1;
  }
}
