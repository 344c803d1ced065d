package io.tributary.flower.records;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/** Checks and copies record values: the Java types that stand for Flower's value types. */
final class Values {
  static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private Values() {}

  /**
   * The value, checked for {@code metric} (numbers only) or config records, with lists copied
   * and unmodifiable.
   */
  static Object check(String key, Object v, boolean metric) {
    if (v == null) {
      throw new IllegalArgumentException("value of '" + key + "' is null");
    }
    if (v instanceof Double || v instanceof Long) {
      return v;
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b) {
      return uint(key, b);
    }
    if (!metric) {
      if (v instanceof Boolean || v instanceof String) {
        return v;
      }
      if (v instanceof byte[] b) {
        return b.clone();
      }
    }
    if (v instanceof List<?> list) {
      if (list.isEmpty()) {
        return List.of();
      }
      Object first = check(key, list.getFirst(), metric);
      if (first instanceof List) {
        throw bad(key, v, metric);
      }
      Class<?> kind = first instanceof BigInteger ? Long.class : first.getClass();
      Object[] out = new Object[list.size()];
      for (int i = 0; i < out.length; i++) {
        Object e = check(key, list.get(i), metric);
        Class<?> k = e instanceof BigInteger ? Long.class : e.getClass();
        if (k != kind) {
          throw new IllegalArgumentException("list '" + key + "' mixes " + kind.getSimpleName()
              + " and " + k.getSimpleName());
        }
        out[i] = e;
      }
      return List.of(out);
    }
    throw bad(key, v, metric);
  }

  private static IllegalArgumentException bad(String key, Object v, boolean metric) {
    return new IllegalArgumentException("value of '" + key + "' has type "
        + v.getClass().getSimpleName() + ", not one a " + (metric ? "MetricRecord" : "ConfigRecord")
        + " holds");
  }

  private static Object uint(String key, BigInteger b) {
    if (b.signum() < 0 || b.compareTo(UINT64_MAX) > 0) {
      throw new IllegalArgumentException("value of '" + key + "' is outside int64 and uint64");
    }
    return b.bitLength() < 64 ? (Object) b.longValue() : b;
  }

  static boolean equal(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /**
   * The checked values of a metric ({@code metric}) or config record, unmodifiable, in the map's
   * iteration order.
   */
  static SequencedMap<String, Object> copy(Map<String, ?> values,
      boolean metric) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    values.forEach((k, v) -> m.put(Objects.requireNonNull(k, "key"),
        check(k, v, metric)));
    return Collections.unmodifiableSequencedMap(m);
  }

  /** Whether two records' values are equal key by key ({@link #equal(Object, Object)}). */
  static boolean equal(Map<String, Object> a, Map<String, Object> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, Object> e : a.entrySet()) {
      Object other = b.get(e.getKey());
      if (other == null || !equal(e.getValue(), other)) {
        return false;
      }
    }
    return true;
  }
}
