package io.tributary.runtime.executor.internal.pass;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.Collection;

/** The bytes of tensor data in a value: what a worker holds at once, or what a client costs. */
public final class TensorBytes {
  private TensorBytes() {}

  /**
   * Tensor bytes in tensors and structs. Sequences are not walked: they may be large lazily
   * produced data the sink only iterates.
   */
  static long of(Object value) {
    return measure(value, false);
  }

  /**
   * As {@link #of}, sequences (in-memory collections) included, each element counting one byte
   * beyond its tensors so that a sequence of empty elements still weighs something.
   */
  static long withSequences(Object value) {
    return measure(value, true);
  }

  private static long measure(Object value, boolean sequences) {
    if (value instanceof Tensor t) {
      return t.dtype().isFixedWidth() ? t.byteSize() : 8 * t.size();
    }
    if (value instanceof StructValue s) {
      long n = 0;
      for (Object v : s.values()) {
        n += measure(v, sequences);
      }
      return n;
    }
    if (sequences && value instanceof Collection<?> c) {
      long n = c.size();
      for (Object v : c) {
        n += measure(v, true);
      }
      return n;
    }
    return 0;
  }
}
