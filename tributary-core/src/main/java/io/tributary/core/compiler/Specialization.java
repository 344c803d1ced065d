package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;

/** The outcome of fitting an intrinsic's template signature to an argument type. */
public sealed interface Specialization {
  /** The argument fits; {@code type} is the concrete signature to use. */
  record Success(FunctionType type) implements Specialization {}

  /**
   * The argument does not fit.
   *
   * @param problem what is wrong, in words
   * @param expected the expected type in compact notation (a template such as {@code {T}@CLIENTS},
   *     possibly with a condition on its type variables)
   * @param actual the argument's type in compact notation
   */
  record Failure(String problem, String expected, String actual) implements Specialization {}
}
