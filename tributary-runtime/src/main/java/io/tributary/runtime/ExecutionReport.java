package io.tributary.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What happened during one invocation, beside its value: these are the figures a round reports
 * in its metrics.
 *
 * @param clients the number of CLIENTS the invocation ran over (0 when it placed nothing there)
 * @param failures the clients that failed and were excluded, in client order (empty unless
 *     failures are tolerated)
 * @param clientPasses how many passes over the clients ran; each pass computes every client's
 *     work once and feeds all the aggregations that need it
 * @param elapsed wall-clock time of the invocation
 */
public record ExecutionReport(
    int clients, List<ClientFailure> failures, int clientPasses, Duration elapsed) {
  public ExecutionReport {
    failures = List.copyOf(failures);
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** The indices of the failed clients, ascending and without repeats. */
  public List<Integer> failedClients() {
    java.util.TreeSet<Integer> clients = new java.util.TreeSet<>();
    for (ClientFailure f : failures) {
      clients.add(f.client());
    }
    return List.copyOf(clients);
  }
}
