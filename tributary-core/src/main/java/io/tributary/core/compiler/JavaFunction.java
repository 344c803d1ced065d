package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Types;
import java.util.Objects;

/**
 * A local computation implemented by a named Java function.
 *
 * <p>Serialized computations carry only the name; a reader resolves it to a function it knows
 * (no class names are ever read from input).
 *
 * @param name the function's name, an identifier
 * @param type the declared type; local (no federated or placement type inside)
 * @param body the implementation
 */
public record JavaFunction(String name, FunctionType type, LocalFunction body)
    implements LocalComputation {
  public JavaFunction {
    Identifiers.require(name, "local function name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(body, "body");
    if (!Types.isLocal(type)) {
      throw new IllegalArgumentException(
          "local function " + name + " has type " + type
              + ", which mentions a federated or placement type; local computations run on"
              + " one participant");
    }
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
