package io.tributary.flower.server.internal;

import io.tributary.learning.rounds.RoundProgress;
import java.util.ArrayList;
import java.util.List;

/**
 * What every {@link SecureFit} keeps between its stages: the round under way, who is told of its
 * progress, and why clients were excluded, one line each.
 */
public abstract class SecureFitRounds implements SecureFit {
  /** Why clients were excluded from the round under way; guarded by itself. */
  protected final List<String> exclusions = new ArrayList<>();
  /** Told of the stages, answers and drop-outs of round {@link #round}. */
  protected volatile RoundProgress progress = RoundProgress.NONE;
  /** The round under way, for logs and progress. */
  protected volatile int round;

  @Override
  public void progress(int round, RoundProgress progress) {
    this.round = round;
    this.progress = progress;
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
