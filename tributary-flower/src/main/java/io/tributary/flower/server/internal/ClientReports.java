package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.learning.MetricAggregation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The numeric metrics clients reported in one phase (fit or evaluate) of the current round, kept
 * until the round's figures are made: Flower clients report free-form metrics whose names the
 * round computation cannot know in advance, so they are combined beside it, per metric, as
 * {@link MetricAggregation} says.
 */
final class ClientReports {
  /** One client's report. */
  record Report(String clientId, long examples, Map<String, Double> metrics) {}

  private final List<Report> reports = new ArrayList<>();
  private int nonFinite;

  /** Keeps the numeric metrics of a client's answer; strings and bytes are not aggregated. */
  synchronized void record(String clientId, long examples, Map<String, Scalar> metrics) {
    Map<String, Double> numbers = new TreeMap<>();
    for (Map.Entry<String, Scalar> e : metrics.entrySet()) {
      OptionalDouble v = e.getValue().asDouble();
      if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
        numbers.put(e.getKey(), v.getAsDouble());
      } else if (v.isPresent()) {
        nonFinite++;
      }
    }
    reports.add(new Report(clientId, examples, numbers));
  }

  /**
   * Each metric aggregated over the clients not in {@code failed}, named {@code prefix + name},
   * by name; and a fresh start for the next round.
   */
  synchronized SortedMap<String, Double> drain(String prefix, Set<String> failed,
      Map<String, MetricAggregation> how) {
    SortedMap<String, List<Report>> byName = new TreeMap<>();
    for (Report r : reports) {
      if (!failed.contains(r.clientId())) {
        r.metrics().keySet().forEach(n -> byName.computeIfAbsent(n, k -> new ArrayList<>())
            .add(r));
      }
    }
    SortedMap<String, Double> out = new TreeMap<>();
    byName.forEach((name, rs) -> {
      double[] values = new double[rs.size()];
      long[] examples = new long[rs.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = rs.get(i).metrics().get(name);
        examples[i] = rs.get(i).examples();
      }
      out.put(prefix + name, how.getOrDefault(name, MetricAggregation.WEIGHTED_MEAN)
          .aggregate(values, examples));
    });
    reports.clear();
    return out;
  }

  /**
   * The median example count of the reports of clients not in {@code failed} (the lower middle
   * of an even count), or -1 when there is none.
   */
  synchronized long medianExamples(Set<String> failed) {
    long[] counts = reports.stream().filter(r -> !failed.contains(r.clientId()))
        .mapToLong(Report::examples).sorted().toArray();
    return counts.length == 0 ? -1 : counts[(counts.length - 1) / 2];
  }

  /** The NaN or infinite metrics left out since the last call, and a fresh count. */
  synchronized int drainNonFinite() {
    int n = nonFinite;
    nonFinite = 0;
    return n;
  }
}
