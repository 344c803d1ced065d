package io.tributary.runtime;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;

/** Short constructors for the tensors tests pass and expect. */
final class TestValues {
  private TestValues() {}

  static Tensor f32(float v) {
    return Tensor.ofFloats(Shape.scalar(), v);
  }

  static Tensor f32v(float... v) {
    return Tensor.ofFloats(Shape.of(v.length), v);
  }

  static Tensor f64(double v) {
    return Tensor.ofDoubles(Shape.scalar(), v);
  }

  static Tensor i32(int v) {
    return Tensor.ofInts(Shape.scalar(), v);
  }

  static Tensor i32v(int... v) {
    return Tensor.ofInts(Shape.of(v.length), v);
  }
}
