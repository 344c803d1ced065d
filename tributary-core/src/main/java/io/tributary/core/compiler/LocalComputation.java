package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;

/**
 * A computation that runs entirely on one participant, with a declared function type that
 * contains no federated or placement type.
 *
 * <p>Two kinds: {@link JavaFunction}, a named Java function, and {@link GraphComputation}, an
 * op graph with the procedure that runs it. The hierarchy is sealed so that the checker, printer
 * and serializer handle every kind explicitly.
 */
public sealed interface LocalComputation extends BuildingBlock permits JavaFunction, GraphComputation {
  /** The name under which the computation is printed and serialized. */
  String name();

  /** The declared type. */
  FunctionType type();
}
