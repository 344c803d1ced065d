package io.tributary.simulation;

import io.tributary.tensor.Tensor;
import java.util.SequencedMap;

/**
 * A completed simulation.
 *
 * @param settings every setting of the run
 * @param history every round, those before a resume included
 * @param finalParameters the final global model's parameters by name, in the model's order
 * @param seconds the wall-clock time of this run (a resumed run counts only its own rounds)
 * @param resumedAfter the round of the checkpoint the run went on from, or 0 for a new run
 * @param outcome one sentence on the run, such as {@code Completed 30 rounds in 4.2 s.} (the
 *     report's and the listeners' {@link SimulationEnd#outcome})
 */
public record SimulationResult(SimulationSettings settings, History history,
    SequencedMap<String, Tensor> finalParameters, double seconds, int resumedAfter,
    String outcome) {}
