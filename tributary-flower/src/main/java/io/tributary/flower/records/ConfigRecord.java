package io.tributary.flower.records;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;

/**
 * Flower's {@code ConfigRecord}: named settings in insertion order. Values are those of a
 * {@link MetricRecord} ({@link Double}, {@link Long}, {@link java.math.BigInteger} above
 * {@code Long.MAX_VALUE}) and also {@link Boolean}, {@link String} and {@code byte[]}, or a
 * {@link java.util.List} of one of them.
 */
public final class ConfigRecord implements Record {
  private final SequencedMap<String, Object> values;

  /**
   * The values of {@code values}, in its iteration order.
   *
   * @throws IllegalArgumentException for a value of a type this record does not hold
   */
  public ConfigRecord(Map<String, ?> values) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    values.forEach((k, v) -> m.put(java.util.Objects.requireNonNull(k, "key"), Values.check(k, v, false)));
    this.values = Collections.unmodifiableSequencedMap(m);
  }

  /** The values, unmodifiable, in order. */
  public SequencedMap<String, Object> values() {
    return values;
  }

  public Object get(String key) {
    return values.get(key);
  }

  public int size() {
    return values.size();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ConfigRecord r) || r.values.size() != values.size()) {
      return false;
    }
    for (Map.Entry<String, Object> e : values.entrySet()) {
      Object other = r.values.get(e.getKey());
      if (other == null || !Values.equal(e.getValue(), other)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return values.keySet().hashCode();
  }

  @Override
  public String toString() {
    return "ConfigRecord" + values;
  }
}
