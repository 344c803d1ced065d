package io.tributary.learning.rounds;

import java.util.List;
import java.util.SequencedMap;

/**
 * A run about to start its first round, as a {@link RoundListener} is told it in {@link
 * RoundListener#started}: on a simulation and on a Flower server alike.
 */
public interface RunStart {
  /** The first round to run: 1, or the round after the checkpoint of a resumed run. */
  int firstRound();

  /**
   * The rounds a resumed run had finished before it stopped, in order; empty for a new run, or
   * where the binding does not know them.
   */
  List<RoundRecord> previous();

  /** The run's last round: the rounds it goes to, a resumed run's earlier ones included. */
  int lastRound();

  /**
   * How the run's checkpoints are made ({@code output.CheckpointListener} reads it); by default
   * one every round, recording no settings and no graph.
   */
  default Checkpoints checkpoints() {
    return Checkpoints.everyRound();
  }

  /**
   * Lines that introduce the run on a console before its first round ({@code
   * output.ProgressListener} prints them), such as the algorithm, the data and the model; none by
   * default.
   */
  default List<String> banner() {
    return List.of();
  }

  /** The run's settings as its report shows them, in order. */
  SequencedMap<String, String> settingsDisplay();

  /** The run's report title, such as {@code fedavg on digits (mlp, 100 clients)}. */
  default String title() {
    return "tributary run";
  }
}
