package io.tributary.core.compiler;

import io.tributary.core.types.FunctionType;

/**
 * A computation that runs entirely on one participant, with a declared function type that
 * contains no federated or placement type.
 *
 * <p>Today the only kind is {@link JavaFunction}. The hierarchy is sealed so that the checker,
 * printer and serializer handle every kind explicitly; graph-backed local computations join it
 * as one more permitted record (and one more case of the proto's {@code LocalComputation}
 * oneof).
 */
public sealed interface LocalComputation extends BuildingBlock permits JavaFunction {
  /** The name under which the computation is printed and serialized. */
  String name();

  /** The declared type. */
  FunctionType type();
}
