package io.tributary.flower.server.internal;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;

/** Element-wise arithmetic the server needs on floating tensors of one dtype and shape. */
final class TensorMath {
  private TensorMath() {}

  /** {@code a - b}, rounded once to the dtype. */
  static Tensor subtract(Tensor a, Tensor b) {
    if (a.dtype() != b.dtype() || !a.shape().equals(b.shape()) || !a.dtype().isFloating()) {
      throw new IllegalArgumentException("cannot subtract " + b.dtype() + b.shape() + " from "
          + a.dtype() + a.shape());
    }
    TensorBuilder out = TensorBuilder.allocate(a.dtype(), a.shape());
    long n = a.size();
    if (a.dtype() == DType.FLOAT32) {
      for (long i = 0; i < n; i++) {
        out.setFloat(i, a.getFloat(i) - b.getFloat(i));
      }
    } else if (a.dtype() == DType.FLOAT64) {
      for (long i = 0; i < n; i++) {
        out.setDouble(i, a.getDouble(i) - b.getDouble(i));
      }
    } else {
      // float16 and bfloat16: the difference of two such values is exact in double.
      for (long i = 0; i < n; i++) {
        out.setFromDouble(i, a.getAsDouble(i) - b.getAsDouble(i));
      }
    }
    return out.build();
  }
}
