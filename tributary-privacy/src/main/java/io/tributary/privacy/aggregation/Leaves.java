package io.tributary.privacy.aggregation;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.List;

/** Elementwise helpers over a model's tensors ({@link io.tributary.learning.ModelLeaves}). */
final class Leaves {
  private Leaves() {}

  /** {@code t} times {@code factor}, in {@code t}'s dtype. */
  static Tensor scale(Tensor t, double factor) {
    TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
    for (long i = 0; i < t.size(); i++) {
      b.setFromDouble(i, t.getAsDouble(i) * factor);
    }
    return b.build();
  }

  /** A hash of the values' bits, the same on every platform. */
  static long hash(List<Tensor> leaves) {
    long h = 0x9E3779B97F4A7C15L;
    for (Tensor t : leaves) {
      for (long i = 0; i < t.size(); i++) {
        h = (h ^ Double.doubleToLongBits(t.getAsDouble(i))) * 0x100000001B3L;
      }
    }
    return h;
  }
}
