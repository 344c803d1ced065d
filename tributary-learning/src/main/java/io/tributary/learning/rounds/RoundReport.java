package io.tributary.learning.rounds;

import io.tributary.core.values.StructValue;
import io.tributary.learning.RoundOutput;
import io.tributary.runtime.ClientFailure;
import java.util.List;
import java.util.Optional;

/**
 * What one round did.
 *
 * @param round the round, from 1
 * @param cohort the clients {@code next} ran over
 * @param state the server state after the round (the old one when the round was refused)
 * @param metrics the round's metrics from {@code next}, absent when the round was refused
 * @param failures the clients of {@code cohort} that failed and were left out (indices into it)
 * @param refused why the round kept the old model, if it did ({@link FailurePolicy#KEEP_MODEL})
 * @param evaluations the evaluations of the new model, in the population's order
 * @param seconds the round's wall-clock time
 */
public record RoundReport(int round, Cohort cohort, StructValue state,
    Optional<RoundOutput.Metrics> metrics, List<ClientFailure> failures, Optional<String> refused,
    List<Evaluation> evaluations, double seconds) {
  /** Copies the lists. */
  public RoundReport {
    failures = List.copyOf(failures);
    evaluations = List.copyOf(evaluations);
  }

  /**
   * One evaluation of the round's model.
   *
   * @param cohort the clients it ran over
   * @param output the value {@code evaluate} returned (for the graph-backed processes {@code
   *     <loss,accuracy,num_examples>}, read with {@code EvaluationOutput.of}; a server's
   *     {@code <loss,num_examples>}), absent when it gave none
   * @param failures the clients of {@code cohort} left out
   */
  public record Evaluation(Cohort cohort, Optional<StructValue> output,
      List<ClientFailure> failures) {
    /** Copies the list. */
    public Evaluation {
      failures = List.copyOf(failures);
    }
  }

  /** A failure's line with the client named as the cohort names it. */
  public static String describe(ClientFailure f, Cohort cohort) {
    String d = f.describe();
    if (f.client() >= 0 && f.client() < cohort.size()) {
      return d.replaceFirst("^client " + f.client() + " ",
          java.util.regex.Matcher.quoteReplacement(cohort.names().get(f.client()) + " "));
    }
    return d;
  }
}
