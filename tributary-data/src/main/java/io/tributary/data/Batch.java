package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;

/**
 * One element of a dataset's sequence: features {@code x} (float32, {@code [b, ...]}) and labels
 * {@code y} (int64, {@code [b]}) for the same {@code b} examples.
 *
 * <p>This is the named struct {@code <x=float32[?,F], y=int64[?]>} that the Federated Core types a
 * dataset's elements as.
 */
public record Batch(Tensor x, Tensor y) {

  /** Checks the dtypes and that both tensors describe the same number of examples. */
  public Batch {
    if (x.dtype() != DType.FLOAT32 || x.rank() < 2) {
      throw new IllegalArgumentException("batch x must be float32 of rank >= 2, got " + x);
    }
    if (y.dtype() != DType.INT64 || y.rank() != 1) {
      throw new IllegalArgumentException("batch y must be int64 of rank 1, got " + y);
    }
    if (x.shape().dim(0) != y.shape().dim(0)) {
      throw new IllegalArgumentException(
          "batch x has " + x.shape().dim(0) + " examples but y has " + y.shape().dim(0));
    }
  }

  /** The number of examples in this batch. */
  public int size() {
    return (int) y.shape().dim(0);
  }
}
