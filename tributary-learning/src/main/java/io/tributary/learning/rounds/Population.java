package io.tributary.learning.rounds;

import java.util.List;

/**
 * Whom a round runs over: simulated datasets, or the clients connected to a server.
 */
public interface Population {
  /** Which invocation a cohort is for. */
  enum Phase {
    /** The process's {@code next}. */
    FIT,
    /** The process's {@code evaluate}. */
    EVALUATE
  }

  /**
   * Round {@code round}'s clients for {@code next}.
   *
   * @throws InterruptedException when waiting for clients is interrupted
   */
  Cohort fitCohort(int round) throws InterruptedException;

  /**
   * The cohorts the round's new model is evaluated on, in order (for example a simulation's
   * training data and test data, or a server's sampled clients); an empty cohort is skipped.
   *
   * @throws InterruptedException when waiting for clients is interrupted
   */
  List<Cohort> evaluationCohorts(int round) throws InterruptedException;

  /** What {@link #open} started, closed once the invocation has returned or failed. */
  @FunctionalInterface
  interface Invocation extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Called before the invocation of {@code phase} over {@code cohort} and closed after it,
   * whatever happened: a server sends its instructions here. The default does nothing.
   */
  default Invocation open(Phase phase, int round, Cohort cohort) {
    return () -> { };
  }

  /**
   * Like {@link #open(Phase, int, Cohort)}, for a population that tells {@code progress} of each
   * client as it answers or fails (a server; see {@link RoundProgress}); the round loop calls
   * this one. By default calls {@link #open(Phase, int, Cohort)} and tells nothing.
   */
  default Invocation open(Phase phase, int round, Cohort cohort, RoundProgress progress) {
    return open(phase, round, cohort);
  }

  /**
   * Whether this population tells {@link RoundProgress} of each client itself, in {@link
   * #open(Phase, int, Cohort, RoundProgress)} (a server, which sees the answers arrive). When it
   * does not (the default, as for simulated datasets), the round loop tells each client as the
   * runtime's pass finishes or fails its work.
   */
  default boolean tellsEachClient() {
    return false;
  }
}
