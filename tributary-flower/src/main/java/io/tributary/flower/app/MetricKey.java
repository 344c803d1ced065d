package io.tributary.flower.app;

import io.tributary.flower.records.RecordException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the {@code MetricRecord} a {@link TrainingClientApp} replies with: the key the
 * strategy sees and where its value comes from, so that Java nodes answer with the same keys as
 * the Python nodes of the same round (Flower's strategies refuse replies whose metric keys
 * differ). A value is one source (a number) or a list of sources (a list of doubles, as a Python
 * ClientApp's {@code np.random.rand(3).tolist()}).
 *
 * <p>Sources: {@code num-examples}; {@code train_loss} in a train reply and {@code loss} or
 * {@code eval_loss} in an evaluate reply; and every metric the client reports under its own name
 * ({@code loss} and {@code accuracy} for {@code TrainingClient}).
 *
 * @param key the metric's key in the reply
 * @param sources where its value comes from: one name, or several for a list
 * @param list whether the value is a list (written {@code key=[a,b]}), even of one source
 */
public record MetricKey(String key, List<String> sources, boolean list) {
  public MetricKey {
    Objects.requireNonNull(key, "key");
    sources = List.copyOf(sources);
    if (key.isBlank()) {
      throw new IllegalArgumentException("a metric key must not be blank");
    }
    if (sources.isEmpty() || (!list && sources.size() != 1)) {
      throw new IllegalArgumentException("metric '" + key + "' needs one source, or a list");
    }
    for (String s : sources) {
      if (s.isBlank()) {
        throw new IllegalArgumentException("metric '" + key + "' has a blank source");
      }
    }
  }

  /**
   * Reads {@code KEY}, {@code KEY=SOURCE} or {@code KEY=[SOURCE,SOURCE,...]}; a bare KEY is its
   * own source.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code spec}
   */
  public static MetricKey parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    int eq = spec.indexOf('=');
    if (eq < 0) {
      return new MetricKey(spec.strip(), List.of(spec.strip()), false);
    }
    String key = spec.substring(0, eq).strip();
    String value = spec.substring(eq + 1).strip();
    if (value.startsWith("[")) {
      if (!value.endsWith("]")) {
        throw new IllegalArgumentException("metric '" + key + "': a list source ends with ']'"
            + " (got '" + clip(value) + "')");
      }
      List<String> names = new ArrayList<>();
      for (String s : value.substring(1, value.length() - 1).split(",", -1)) {
        names.add(s.strip());
      }
      return new MetricKey(key, names, true);
    }
    return new MetricKey(key, List.of(value), false);
  }

  /** Parses each of {@code specs} ({@link #parse}), refusing a key given twice. */
  public static List<MetricKey> parseAll(List<String> specs) {
    List<MetricKey> out = new ArrayList<>();
    for (String s : specs) {
      MetricKey k = parse(s);
      if (out.stream().anyMatch(o -> o.key.equals(k.key))) {
        throw new IllegalArgumentException("metric '" + k.key + "' is given twice");
      }
      out.add(k);
    }
    return List.copyOf(out);
  }

  /** The value from {@code available} (source name to Long, Double or BigInteger). */
  Object value(Map<String, Object> available) throws RecordException {
    if (!list) {
      return source(available, sources.getFirst());
    }
    List<Double> out = new ArrayList<>(sources.size());
    for (String s : sources) {
      Object v = source(available, s);
      out.add(v instanceof BigInteger b ? b.doubleValue() : ((Number) v).doubleValue());
    }
    return List.copyOf(out);
  }

  private Object source(Map<String, Object> available, String name) throws RecordException {
    Object v = available.get(name);
    if (v == null) {
      throw new RecordException("metric '" + key + "': no source '" + name + "' in this reply"
          + " (there are " + available.keySet() + ")");
    }
    return v;
  }

  private static String clip(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
