package io.tributary.graph.ops;

import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;

/**
 * The static type of a value in a graph: dtype and partial shape.
 *
 * @param dtype the element type
 * @param shape the shape; unknown dimensions are -1
 */
public record ValueType(DType dtype, PartialShape shape) {
  public static ValueType of(DType dtype, long... dims) {
    return new ValueType(dtype, PartialShape.of(dims));
  }

  @Override
  public String toString() {
    return dtype + shape.toString();
  }
}
