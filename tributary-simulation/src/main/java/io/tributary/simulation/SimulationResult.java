package io.tributary.simulation;

import io.tributary.tensor.Tensor;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * A completed simulation (or one stopped between rounds on request).
 *
 * @param settings every setting of the run
 * @param history every round, those before a resume included
 * @param finalParameters the final global model's parameters by name, in the model's order
 * @param seconds the wall-clock time of this run (a resumed run counts only its own rounds)
 * @param resumedAfter the round of the checkpoint the run went on from, or 0 for a new run
 * @param outcome one sentence on the run, such as {@code Completed 30 rounds in 4.2 s.} (the
 *     report's and the listeners' {@link SimulationEnd#outcome})
 * @param checkpoint where the run would go on from, held in memory: the last round, its model,
 *     the server optimizer's and aggregator's state and every round so far, for {@link
 *     Simulation.Builder#resumeFrom(SimulationResult)}; empty when no round ran
 */
public record SimulationResult(SimulationSettings settings, History history,
    SequencedMap<String, Tensor> finalParameters, double seconds, int resumedAfter,
    String outcome, Optional<ResumePoint> checkpoint) {
  /** Checks that the checkpoint is given, if empty. */
  public SimulationResult {
    Objects.requireNonNull(checkpoint, "checkpoint");
  }

  /** A result without a checkpoint in memory. */
  public SimulationResult(SimulationSettings settings, History history,
      SequencedMap<String, Tensor> finalParameters, double seconds, int resumedAfter,
      String outcome) {
    this(settings, history, finalParameters, seconds, resumedAfter, outcome, Optional.empty());
  }

  /** Whether every round of the settings ran: false for a run stopped between rounds. */
  public boolean complete() {
    return history.rounds().size() >= settings.rounds();
  }
}
