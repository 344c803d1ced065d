package io.tributary.flower.server.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What the clients of the current round reported beside their parameters, for the round's
 * metrics: Flower clients report their training loss, if at all, in FitRes metrics.
 */
public final class FitLog {
  /** One client's successful fit. */
  public record Entry(String clientId, long numExamples, OptionalDouble loss) {}

  private final List<Entry> entries = new ArrayList<>();

  synchronized void record(Entry e) {
    entries.add(e);
  }

  /** The entries so far, and a fresh start for the next round. */
  public synchronized List<Entry> drain() {
    List<Entry> out = List.copyOf(entries);
    entries.clear();
    return out;
  }

  /**
   * The example-weighted mean of the reported losses of clients not in {@code failed}, or empty
   * when none reported one (or all reporters had no examples).
   */
  public static OptionalDouble weightedLoss(List<Entry> entries, Set<String> failed) {
    double sum = 0;
    long weight = 0;
    for (Entry e : entries) {
      if (!failed.contains(e.clientId()) && e.loss().isPresent()) {
        sum += e.loss().getAsDouble() * e.numExamples();
        weight += e.numExamples();
      }
    }
    return weight == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / weight);
  }
}
