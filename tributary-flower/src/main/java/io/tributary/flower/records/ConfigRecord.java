package io.tributary.flower.records;

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
    this.values = Values.copy(values, false);
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
    return o instanceof ConfigRecord r && Values.equal(values, r.values);
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
