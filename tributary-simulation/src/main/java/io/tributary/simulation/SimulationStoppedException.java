package io.tributary.simulation;

/**
 * A simulation that stopped before its last round, because the model could not be prepared or a
 * round failed beyond what the failure policy tolerates. Its listeners were told ({@code
 * report.html} and {@code metrics.jsonl} hold the rounds that finished).
 */
public final class SimulationStoppedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient History history;

  /**
   * A run stopped after the rounds of {@code history}.
   *
   * @param outcome one sentence on where and why it stopped
   */
  public SimulationStoppedException(String outcome, History history, Throwable cause) {
    super(outcome, cause);
    this.history = history;
  }

  /** The rounds that finished before the run stopped. */
  public History history() {
    return history;
  }
}
