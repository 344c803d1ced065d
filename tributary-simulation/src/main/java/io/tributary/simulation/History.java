package io.tributary.simulation;

import io.tributary.learning.rounds.RoundRecord;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.ToDoubleFunction;

/**
 * The rounds of a simulation, in order, each a {@link RoundRecord}: what {@code metrics.jsonl}
 * holds, as values.
 */
public final class History {
  private final List<RoundRecord> rounds;

  /**
   * The history of {@code rounds}, which must be numbered 1, 2, 3, ... in order.
   *
   * @throws IllegalArgumentException when a round is out of sequence
   */
  public History(List<RoundRecord> rounds) {
    this.rounds = List.copyOf(rounds);
    for (int i = 0; i < this.rounds.size(); i++) {
      if (this.rounds.get(i).round() != i + 1) {
        throw new IllegalArgumentException("round " + this.rounds.get(i).round() + " at position "
            + (i + 1) + " of a history: rounds must be 1, 2, 3, ...");
      }
    }
  }

  /** An empty history. */
  public static History empty() {
    return new History(List.of());
  }

  /** Every round, in order. */
  public List<RoundRecord> rounds() {
    return rounds;
  }

  /** The number of rounds. */
  public int size() {
    return rounds.size();
  }

  /** Whether no round finished. */
  public boolean isEmpty() {
    return rounds.isEmpty();
  }

  /**
   * Round {@code round} (from 1).
   *
   * @throws IndexOutOfBoundsException when the history does not hold that round
   */
  public RoundRecord round(int round) {
    return rounds.get(round - 1);
  }

  /**
   * The last round.
   *
   * @throws NoSuchElementException when no round finished
   */
  public RoundRecord last() {
    if (rounds.isEmpty()) {
      throw new NoSuchElementException("no round finished");
    }
    return rounds.getLast();
  }

  /** One figure of every round, in order, such as {@code series(RoundRecord::testAccuracy)}. */
  public double[] series(ToDoubleFunction<RoundRecord> figure) {
    return rounds.stream().mapToDouble(figure).toArray();
  }

  /** The round with the highest test accuracy (the first of equals), if any round finished. */
  public java.util.Optional<RoundRecord> bestTestAccuracy() {
    RoundRecord best = null;
    for (RoundRecord r : rounds) {
      if (best == null || r.testAccuracy() > best.testAccuracy()) {
        best = r;
      }
    }
    return java.util.Optional.ofNullable(best);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof History h && h.rounds.equals(rounds);
  }

  @Override
  public int hashCode() {
    return rounds.hashCode();
  }

  @Override
  public String toString() {
    return "History" + Collections.unmodifiableList(rounds);
  }
}
