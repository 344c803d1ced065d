package io.tributary.core.compiler;

/**
 * The body of a {@link JavaFunction}.
 *
 * <p>The representation of values (tensors, structs, sequences) is defined by the runtime that
 * invokes the function; the Federated Core only records the function's name and type.
 */
@FunctionalInterface
public interface LocalFunction {
  /**
   * Computes the result for one argument.
   *
   * @param argument the argument in the runtime's value representation, or {@code null} when the
   *     function has no parameter
   */
  Object apply(Object argument);
}
