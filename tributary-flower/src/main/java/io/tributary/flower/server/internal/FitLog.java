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
   * when none reported one (or all reporters had no examples). Counts above {@code maxExamples}
   * count as {@code maxExamples}, as in the runtime's weighted means; weights are summed in
   * double, which cannot overflow.
   */
  public static OptionalDouble weightedLoss(List<Entry> entries, Set<String> failed,
      long maxExamples) {
    double sum = 0;
    double weight = 0;
    for (Entry e : entries) {
      if (!failed.contains(e.clientId()) && e.loss().isPresent()) {
        double n = Math.min(e.numExamples(), maxExamples);
        sum += e.loss().getAsDouble() * n;
        weight += n;
      }
    }
    return weight == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / weight);
  }
}
