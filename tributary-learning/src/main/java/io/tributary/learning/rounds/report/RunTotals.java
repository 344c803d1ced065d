package io.tributary.learning.rounds.report;

import io.tributary.learning.rounds.RoundRecord;
import java.util.List;

/**
 * The sums over every round of a run, kept apart from the rounds a page plots so that a page
 * whose history is thinned out (a live view of a long run) still shows the whole run's totals.
 *
 * @param rounds the rounds counted
 * @param lastRound the number of the last round counted; 0 before the first
 * @param seconds the rounds' wall-clock time
 * @param bytesUp bytes the clients sent
 * @param bytesDown bytes the server sent
 * @param failures failed clients (and failed evaluations, on a server)
 */
public record RunTotals(long rounds, int lastRound, double seconds, long bytesUp,
    long bytesDown, long failures) {
  /** No round yet. */
  public static final RunTotals NONE = new RunTotals(0, 0, 0, 0, 0, 0);

  /** The totals of {@code rounds}. */
  public static RunTotals of(List<RoundRecord> rounds) {
    RunTotals t = NONE;
    for (RoundRecord r : rounds) {
      t = t.plus(r);
    }
    return t;
  }

  /** These totals and round {@code r}; sums that would overflow stay at the largest value. */
  public RunTotals plus(RoundRecord r) {
    return new RunTotals(rounds + 1, r.round(), seconds + r.seconds(),
        saturated(bytesUp, r.bytesUp()), saturated(bytesDown, r.bytesDown()),
        saturated(failures, r.failures()));
  }

  /** The mean time of a round, or NaN before the first. */
  public double secondsPerRound() {
    return rounds == 0 ? Double.NaN : seconds / rounds;
  }

  private static long saturated(long a, long b) {
    long s = a + b;
    return s < a ? Long.MAX_VALUE : s;
  }
}
