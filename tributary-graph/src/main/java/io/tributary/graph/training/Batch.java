package io.tributary.graph.training;

import io.tributary.tensor.Tensor;
import java.util.Objects;

/**
 * One batch: examples and their labels, with the same leading dimension.
 *
 * @param x the examples, [batch, ...]
 * @param y the labels, [batch] int64 or int32 class indices
 */
public record Batch(Tensor x, Tensor y) {
  public Batch {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    if (x.rank() < 1 || y.rank() < 1 || x.shape().dim(0) != y.shape().dim(0)) {
      throw new IllegalArgumentException("examples " + x.shape() + " and labels " + y.shape()
          + " differ in batch size");
    }
  }

  /** The number of examples. */
  public long size() {
    return x.shape().dim(0);
  }
}
