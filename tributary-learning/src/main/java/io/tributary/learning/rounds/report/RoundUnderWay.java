package io.tributary.learning.rounds.report;

import java.util.List;
import java.util.Objects;

/**
 * The round a live page shows as under way: its stages with their clients' counts so far, the
 * reasons of the clients that failed in it, and the bytes it has moved. A report has none: the
 * run has ended.
 *
 * @param round the round's number
 * @param startedAt when the round started, as the page shows it (such as {@code 20:01:02 UTC})
 * @param seconds the seconds from its start to the latest event
 * @param stages the stages started so far, in order
 * @param failures one line per failed client (the latest ones, at most {@link
 *     RunPage#MAX_FAILURE_LINES})
 * @param failuresOmitted the earlier lines of this round not kept
 * @param bytesUp bytes received from clients so far; negative when not known
 * @param bytesDown bytes sent to clients so far; negative when not known
 */
public record RoundUnderWay(int round, String startedAt, double seconds, List<Stage> stages,
    List<String> failures, long failuresOmitted, long bytesUp, long bytesDown) {
  /** Copies the lists. */
  public RoundUnderWay {
    Objects.requireNonNull(startedAt, "startedAt");
    stages = List.copyOf(stages);
    failures = List.copyOf(failures);
  }

  /**
   * One stage of the round.
   *
   * @param name such as {@code fit}, {@code evaluate test} or {@code SecAgg+ share-keys}
   * @param clients the clients it runs over
   * @param reported those whose results were taken so far
   * @param failed those that failed or dropped out so far
   * @param ended whether the stage is over (its counts are then final)
   */
  public record Stage(String name, int clients, int reported, int failed, boolean ended) {
    /** Checks the name. */
    public Stage {
      Objects.requireNonNull(name, "name");
    }
  }
}
