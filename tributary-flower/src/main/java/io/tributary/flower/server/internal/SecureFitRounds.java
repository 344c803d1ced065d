package io.tributary.flower.server.internal;

import io.tributary.learning.rounds.RoundProgress;
import java.util.ArrayList;
import java.util.List;

/**
 * What every {@link SecureFit} keeps between the stages of the round it runs: the round's
 * number and who is told of its progress (from the {@link FitRound} it runs, {@link #begin}),
 * and why clients were excluded, one line each.
 */
public abstract class SecureFitRounds implements SecureFit {
  /** Why clients were excluded from the round under way; guarded by itself. */
  protected final List<String> exclusions = new ArrayList<>();
  /** Told of the stages, answers and drop-outs of round {@link #round}. */
  protected volatile RoundProgress progress = RoundProgress.NONE;
  /** The round under way, for logs and progress. */
  protected volatile int round;

  /**
   * Starts running {@code fit}'s round: forgets the last round's exclusions and tells {@code
   * fit}'s progress from now on.
   */
  protected final void begin(FitRound fit) {
    reset();
    this.round = fit.round();
    this.progress = fit.progress();
  }

  @Override
  public void reset() {
    synchronized (exclusions) {
      exclusions.clear();
    }
  }

  @Override
  public List<String> exclusions() {
    synchronized (exclusions) {
      return List.copyOf(exclusions);
    }
  }
}
