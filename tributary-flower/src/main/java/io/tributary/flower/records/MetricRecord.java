package io.tributary.flower.records;

import java.util.Map;
import java.util.SequencedMap;

/**
 * Flower's {@code MetricRecord}: named numbers in insertion order. Values are {@link Double}
 * ({@code float}), {@link Long} ({@code int}, sent as {@code sint64}), {@link java.math.BigInteger}
 * for integers above {@code Long.MAX_VALUE} (sent as {@code uint64}, as Flower does), or a
 * {@link java.util.List} of one of them. {@link Float} and the smaller integer types are widened.
 */
public final class MetricRecord implements Record {
  private final SequencedMap<String, Object> values;

  /**
   * The values of {@code values}, in its iteration order.
   *
   * @throws IllegalArgumentException for a value of a type this record does not hold
   */
  public MetricRecord(Map<String, ?> values) {
    this.values = Values.copy(values, true);
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
    return o instanceof MetricRecord r && Values.equal(values, r.values);
  }

  @Override
  public int hashCode() {
    return values.keySet().hashCode();
  }

  @Override
  public String toString() {
    return "MetricRecord" + values;
  }
}
