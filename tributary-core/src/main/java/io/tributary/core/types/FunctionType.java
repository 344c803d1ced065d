package io.tributary.core.types;

import java.util.Objects;
import java.util.Optional;

/**
 * The type of a function with at most one parameter: {@code (T -> U)}, or {@code ( -> U)}.
 *
 * @param parameter the parameter type, empty for a function without a parameter
 * @param result the result type
 */
public record FunctionType(Optional<Type> parameter, Type result) implements Type {
  public FunctionType {
    Objects.requireNonNull(parameter, "parameter");
    Objects.requireNonNull(result, "result");
  }

  public static FunctionType of(Type parameter, Type result) {
    return new FunctionType(Optional.of(parameter), result);
  }

  /** A function without a parameter. */
  public static FunctionType noParameter(Type result) {
    return new FunctionType(Optional.empty(), result);
  }

  @Override
  public String toString() {
    return compact();
  }
}
