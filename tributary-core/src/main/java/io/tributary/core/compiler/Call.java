package io.tributary.core.compiler;

import java.util.Objects;
import java.util.Optional;

/**
 * Calls a function-typed expression: {@code f(x)}, or {@code f()} for a function without a
 * parameter.
 *
 * @param function the function
 * @param argument the argument, present exactly when the function has a parameter
 */
public record Call(BuildingBlock function, Optional<BuildingBlock> argument)
    implements BuildingBlock {
  public Call {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(argument, "argument");
  }

  public static Call of(BuildingBlock function, BuildingBlock argument) {
    return new Call(function, Optional.of(argument));
  }

  public static Call withoutArgument(BuildingBlock function) {
    return new Call(function, Optional.empty());
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
