package io.tributary.flower.records;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/** Flower's {@code RecordDict}: a message's content, named records in insertion order. */
public final class RecordDict {
  private static final RecordDict EMPTY = new RecordDict(Map.of());
  private final SequencedMap<String, Record> records;

  /** The records of {@code records}, in its iteration order. */
  public RecordDict(Map<String, ? extends Record> records) {
    LinkedHashMap<String, Record> m = new LinkedHashMap<>();
    records.forEach((k, v) -> m.put(Objects.requireNonNull(k, "key"),
        Objects.requireNonNull(v, "record " + k)));
    this.records = Collections.unmodifiableSequencedMap(m);
  }

  public static RecordDict empty() {
    return EMPTY;
  }

  /** A record dict of one record. */
  public static RecordDict of(String k, Record v) {
    return new RecordDict(Map.of(k, v));
  }

  /** A record dict of two records, in this order. */
  public static RecordDict of(String k1, Record v1, String k2, Record v2) {
    LinkedHashMap<String, Record> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return new RecordDict(m);
  }

  /** The records, unmodifiable, in order. */
  public SequencedMap<String, Record> records() {
    return records;
  }

  public Record get(String key) {
    return records.get(key);
  }

  /** The array records, in order. */
  public SequencedMap<String, ArrayRecord> arrayRecords() {
    return only(ArrayRecord.class);
  }

  /** The metric records, in order. */
  public SequencedMap<String, MetricRecord> metricRecords() {
    return only(MetricRecord.class);
  }

  /** The config records, in order. */
  public SequencedMap<String, ConfigRecord> configRecords() {
    return only(ConfigRecord.class);
  }

  private <T extends Record> SequencedMap<String, T> only(Class<T> kind) {
    LinkedHashMap<String, T> m = new LinkedHashMap<>();
    records.forEach((k, v) -> {
      if (kind.isInstance(v)) {
        m.put(k, kind.cast(v));
      }
    });
    return Collections.unmodifiableSequencedMap(m);
  }

  public int size() {
    return records.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RecordDict r && records.equals(r.records);
  }

  @Override
  public int hashCode() {
    return records.hashCode();
  }

  @Override
  public String toString() {
    return "RecordDict" + records;
  }
}
