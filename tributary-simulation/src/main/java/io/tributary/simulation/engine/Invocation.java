package io.tributary.simulation.engine;

import java.util.Objects;

/**
 * Which invocation of a simulation a client pass belongs to: with the settings, all a worker
 * needs to rebuild the invocation's clients (their data derive from the settings and the seed).
 *
 * @param kind the computation and the clients it runs over
 * @param round the round, from 1
 */
public record Invocation(Kind kind, int round) {
  /** The computation and its clients. */
  public enum Kind {
    /** {@code next} over round {@code round}'s sampled clients. */
    FIT,
    /** {@code evaluate} over every client's training data. */
    EVALUATE_TRAIN,
    /** {@code evaluate} over the pieces of the test data. */
    EVALUATE_TEST
  }

  /**
   * Checks the round.
   *
   * @throws IllegalArgumentException when the round is below 1
   */
  public Invocation {
    Objects.requireNonNull(kind, "kind");
    if (round < 1) {
      throw new IllegalArgumentException("an invocation's round is from 1, got " + round);
    }
  }
}
