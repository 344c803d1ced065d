package io.tributary.learning.rounds;

import io.tributary.tensor.Tensor;
import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Told what a run does, on the thread that runs its rounds: when it starts, after every round
 * (with the model after it, to log, print or checkpoint), when it ends, and last that it may
 * release what it holds. It is the one listener type of every binding: {@code
 * FlowerServer.run(RoundListener)} and {@code Simulation.Builder.listener(RoundListener)} take
 * the same listener and tell it the same events, in the same order: {@link #started} once,
 * {@link #roundEnded} after each round, {@link #finished} once, {@link #close} last. While a
 * round goes, the {@link RoundProgress} events tell its stages and clients as they happen (from
 * any thread: see there).
 *
 * <p>Only {@link #roundEnded(RoundRecord, SequencedMap)} must be written; every other method has
 * an empty default, so a lambda is a listener. {@code io.tributary.learning.rounds.RunLoop} is
 * the one place that tells these events, for every binding. An {@link IOException} from a listener stops the
 * run; the listener is closed whatever happened.
 */
@FunctionalInterface
public interface RoundListener extends Closeable, RoundProgress {
  /**
   * Called once, before the first round, with the first round's number, the rounds a resumed run
   * had finished and the run's settings as its report shows them.
   *
   * @throws IOException to stop the run before it starts
   */
  default void started(RunStart start) throws IOException {}

  /**
   * Called on the thread that runs the rounds, after each round.
   *
   * @param metrics what the round measured: a {@link RoundRecord.EvaluationKind#CENTRAL} record
   *     in a simulation, a {@link RoundRecord.EvaluationKind#FEDERATED} one on a server (write it
   *     as a line of {@code metrics.jsonl} with {@code RoundJson.toJson})
   * @param parameters the model after the round, named as the initial parameters were
   * @throws IOException to stop the run
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

  /**
   * Asked after each round, once every listener was told it, whether the run should stop: a
   * reason stops it before the next round, with this round's model as the final one (an early
   * stop on a target accuracy, a budget, a signal). By default the run goes on.
   *
   * @param round what the round measured
   * @return why the run should stop, or empty to go on
   */
  default Optional<String> stopAfter(RoundRecord round) {
    return Optional.empty();
  }

  /**
   * Called once when the run ends, completed (with the final model) or stopped by a failure
   * (without one), after {@link #started} was called.
   *
   * @throws IOException when what the listener writes at the end cannot be written
   */
  default void finished(RunEnd end) throws IOException {}

  /**
   * Releases what the listener holds (files, threads), whatever happened; called last.
   *
   * @throws IOException when something the listener still had to write could not be written
   */
  @Override
  default void close() throws IOException {}
}
