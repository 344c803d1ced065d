package io.tributary.graph;

import io.tributary.tensor.DType;
import java.util.Objects;

/**
 * A named value in a graph: its dtype, its (possibly partial) shape and its kind.
 *
 * @param name unique within the graph, non-empty
 * @param dtype the element type
 * @param shape the shape; unknown dimensions are -1
 * @param kind placeholder, constant, trainable parameter or intermediate array
 */
public record Variable(String name, DType dtype, PartialShape shape, VariableKind kind) {
  public Variable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(dtype, "dtype");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(kind, "kind");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("variable name must not be empty");
    }
  }
}
