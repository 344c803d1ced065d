package io.tributary.flower.records;

import io.tributary.tensor.Tensor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * Flower's {@code ArrayRecord}: named {@link Array}s in insertion order (a model's parameters,
 * typically).
 */
public final class ArrayRecord implements Record {
  private final SequencedMap<String, Array> arrays;

  /** The arrays of {@code arrays}, in its iteration order. */
  public ArrayRecord(Map<String, Array> arrays) {
    LinkedHashMap<String, Array> m = new LinkedHashMap<>();
    arrays.forEach((k, v) -> m.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v,
        "array " + k)));
    this.arrays = Collections.unmodifiableSequencedMap(m);
  }

  /** The numpy arrays of {@code tensors}, in its iteration order. */
  public static ArrayRecord fromTensors(Map<String, Tensor> tensors) {
    LinkedHashMap<String, Array> m = new LinkedHashMap<>();
    tensors.forEach((k, t) -> m.put(k, Array.fromTensor(t)));
    return new ArrayRecord(m);
  }

  /**
   * Every array as a tensor, in order.
   *
   * @throws RecordException naming the first array that is not a valid numpy array
   */
  public SequencedMap<String, Tensor> toTensors() throws RecordException {
    LinkedHashMap<String, Tensor> m = new LinkedHashMap<>();
    for (Map.Entry<String, Array> e : arrays.entrySet()) {
      try {
        m.put(e.getKey(), e.getValue().toTensor());
      } catch (RecordException ex) {
        throw new RecordException("array '" + e.getKey() + "': " + ex.getMessage(), ex);
      }
    }
    return Collections.unmodifiableSequencedMap(m);
  }

  /** The arrays, unmodifiable, in order. */
  public SequencedMap<String, Array> arrays() {
    return arrays;
  }

  public Array get(String key) {
    return arrays.get(key);
  }

  public int size() {
    return arrays.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayRecord r && arrays.equals(r.arrays)
        && arrays.sequencedKeySet().stream().toList()
            .equals(r.arrays.sequencedKeySet().stream().toList());
  }

  @Override
  public int hashCode() {
    return arrays.hashCode();
  }

  @Override
  public String toString() {
    return "ArrayRecord" + arrays;
  }
}
