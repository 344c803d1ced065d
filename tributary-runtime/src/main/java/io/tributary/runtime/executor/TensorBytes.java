package io.tributary.runtime.executor;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;

/** The bytes of tensor data in a value, for bounding what a worker holds at once. */
final class TensorBytes {
  private TensorBytes() {}

  static long of(Object value) {
    if (value instanceof Tensor t) {
      return t.dtype().isFixedWidth() ? t.byteSize() : 8 * t.size();
    }
    if (value instanceof StructValue s) {
      long n = 0;
      for (Object v : s.values()) {
        n += of(v);
      }
      return n;
    }
    // Sequences are not walked: they may be large lazily produced data the sink only iterates.
    return 0;
  }
}
