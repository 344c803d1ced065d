package io.tributary.learning.rounds;

import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ClientObserver;
import java.util.BitSet;

/**
 * Passes the runtime's per-client events of one invocation on to a round's {@link RoundProgress}
 * as {@link RoundProgress#clientReported} and {@link RoundProgress#clientFailed}, naming each
 * client as its cohort does.
 *
 * <p>An invocation may run several passes over its clients; each client is told reported once
 * (the first pass it finishes) and failed once (the first failure), so the live counts stay
 * within the cohort. The stage's end, which the round loop tells from the invocation's outcome,
 * is what counts in the end.
 */
final class ClientEvents implements ClientObserver {
  private final int round;
  private final Cohort cohort;
  private final RoundProgress progress;
  // Guarded by this: which clients were told, so that none is told twice.
  private final BitSet reported = new BitSet();
  private final BitSet failed = new BitSet();

  ClientEvents(int round, Cohort cohort, RoundProgress progress) {
    this.round = round;
    this.cohort = cohort;
    this.progress = progress;
  }

  /**
   * The observer of an invocation over {@code cohort}: none when nobody listens or when the
   * population tells each client itself (a server, which sees the answers before the runtime).
   */
  static ClientObserver of(int round, Cohort cohort, RoundProgress progress,
      Population population) {
    return progress == RoundProgress.NONE || population.tellsEachClient()
        ? ClientObserver.NONE : new ClientEvents(round, cohort, progress);
  }

  @Override
  public void clientDone(int pass, int client) {
    if (client < 0 || client >= cohort.size()) {
      return;
    }
    synchronized (this) {
      if (reported.get(client) || failed.get(client)) {
        return;
      }
      reported.set(client);
    }
    progress.clientReported(round, cohort.names().get(client));
  }

  @Override
  public void clientFailed(int pass, ClientFailure failure) {
    int client = failure.client();
    if (client < 0 || client >= cohort.size()) {
      return;
    }
    synchronized (this) {
      if (failed.get(client)) {
        return;
      }
      failed.set(client);
    }
    progress.clientFailed(round, cohort.names().get(client),
        RoundReport.describe(failure, cohort));
  }
}
