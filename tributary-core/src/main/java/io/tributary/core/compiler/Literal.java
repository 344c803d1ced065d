package io.tributary.core.compiler;

import io.tributary.tensor.Tensor;
import java.util.Objects;

/**
 * A constant tensor; its type is the tensor's dtype and shape.
 *
 * @param value the constant
 */
public record Literal(Tensor value) implements BuildingBlock {
  public Literal {
    Objects.requireNonNull(value, "value");
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
