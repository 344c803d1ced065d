package io.tributary.core.compiler;

import io.tributary.core.types.Type;
import java.util.Objects;
import java.util.Optional;

/**
 * A function: {@code (x -> body)}, or {@code ( -> body)} without a parameter.
 *
 * @param parameterName the parameter's name; empty exactly when there is no parameter
 * @param parameterType the parameter's type, empty when there is no parameter
 * @param result the body, which may refer to the parameter by name
 */
public record Lambda(String parameterName, Optional<Type> parameterType, BuildingBlock result)
    implements BuildingBlock {
  public Lambda {
    Objects.requireNonNull(parameterName, "parameterName");
    Objects.requireNonNull(parameterType, "parameterType");
    Objects.requireNonNull(result, "result");
    if (parameterType.isPresent()) {
      Identifiers.requireVariable(parameterName, "lambda parameter name");
    } else if (!parameterName.isEmpty()) {
      throw new IllegalArgumentException(
          "lambda without a parameter type names a parameter '" + parameterName + "'");
    }
  }

  public static Lambda of(String parameterName, Type parameterType, BuildingBlock result) {
    return new Lambda(parameterName, Optional.of(parameterType), result);
  }

  public static Lambda noParameter(BuildingBlock result) {
    return new Lambda("", Optional.empty(), result);
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
