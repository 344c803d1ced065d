package io.tributary.format;

import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/** The order in which this package takes a map given to it. */
final class Ordered {
  private Ordered() {}

  /**
   * {@code map} in a {@link SequencedMap}'s own order, or sorted by key for any other map (such
   * as {@code Map.of(...)}), whose iteration order is unspecified.
   *
   * @throws NullPointerException if an unordered map has a null key
   */
  static <V> SequencedMap<String, V> of(Map<String, V> map) {
    return map instanceof SequencedMap<String, V> s ? s : new TreeMap<>(map);
  }
}
