package io.tributary.core.compiler;

import io.tributary.core.types.Placement;
import java.util.Objects;

/**
 * A placement used as a value, such as {@code CLIENTS}; its type is {@code placement}.
 *
 * @param placement the placement
 */
public record PlacementLiteral(Placement placement) implements BuildingBlock {
  public PlacementLiteral {
    Objects.requireNonNull(placement, "placement");
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
