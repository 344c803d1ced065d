package io.tributary.simulation;

import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RunEnd;
import io.tributary.learning.rounds.RunStart;
import io.tributary.learning.rounds.UpdaterState;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Told what a simulation does, on the thread that runs it: when it starts, after every round, and
 * when it ends. The run's files, its progress display and its report are listeners (package
 * {@code io.tributary.simulation.output}); a user adds one of their own, for example to log to
 * their own system, with {@link Simulation.Builder#listener}.
 *
 * <p>It is the binding-independent {@link RoundListener} told the simulation's own start and end
 * ({@link SimulationStart}, {@link SimulationEnd}: the data, the model, the settings); by default
 * those call {@link RoundListener#started(RunStart)} and {@link RoundListener#finished(RunEnd)},
 * so a plain {@link RoundListener} serves a simulation and a server alike. Every method has a
 * default. An {@link IOException} from a listener stops the run: every listener is told the
 * end, and {@link Simulation#run} throws it after closing every listener. A listener's {@link
 * RoundListener#stopAfter} answer stops the run between rounds without a failure.
 */
public interface SimulationListener extends RoundListener {
  /**
   * Called once, after the data and the model are ready and before the first round; by default
   * calls {@link RoundListener#started(RunStart)}.
   *
   * @throws IOException to stop the run before it starts
   */
  default void started(SimulationStart start) throws IOException {
    started((RunStart) start);
  }

  /**
   * Called after each round.
   *
   * @param round what the round measured
   * @param parameters the global model after the round, by name; tensors are immutable, so a
   *     listener may keep them
   * @throws IOException to stop the run
   */
  @Override
  default void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters)
      throws IOException {}

  /**
   * Called after each round with the server optimizer's state as well (FedAdam's moments), for
   * a listener that checkpoints it; by default calls {@link #roundEnded(RoundRecord,
   * SequencedMap)}.
   *
   * @param updater the optimizer's state after the round; empty for an algorithm that keeps none
   * @throws IOException to stop the run
   */
  @Override
  default void roundEnded(RoundRecord round, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    roundEnded(round, parameters);
  }

  /**
   * Called once when the run ends: completed, stopped between rounds on request, or stopped by a
   * failure (a listener's included); by default calls {@link RoundListener#finished(RunEnd)}.
   *
   * @throws IOException when what the listener writes at the end cannot be written
   */
  default void finished(SimulationEnd end) throws IOException {
    finished((RunEnd) end);
  }

  /**
   * Releases what the listener holds (files, threads), whatever happened; called last, once.
   *
   * @throws IOException when something the listener still had to write could not be written
   */
  @Override
  default void close() throws IOException {}
}
