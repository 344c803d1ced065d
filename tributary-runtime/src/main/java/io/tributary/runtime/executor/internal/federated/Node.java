package io.tributary.runtime.executor.internal.federated;

import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.types.Type;
import io.tributary.runtime.executor.ExecutorValue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A value of the {@link FederatingExecutor}: a node of the lazy graph an invocation builds.
 *
 * <p>Unplaced values are computed at once (they never depend on federated work); values at
 * SERVER and CLIENTS are nodes computed when materialized, so that every aggregation needing the
 * same clients' work can be fed from one pass over the clients.
 */
public abstract class Node implements ExecutorValue {
  private final Type type;

  Node(Type type) {
    this.type = Objects.requireNonNull(type, "type");
  }

  @Override
  public Type type() {
    return type;
  }

  /** A computed local value: a tensor, struct, sequence or local function. */
  public static final class Unplaced extends Node {
    final Object value;

    Unplaced(Type type, Object value) {
      super(type);
      this.value = Objects.requireNonNull(value, "value");
    }
  }

  /** A federated intrinsic as a function value, waiting to be called. */
  public static final class IntrinsicRef extends Node {
    final Intrinsic intrinsic;

    IntrinsicRef(Intrinsic intrinsic) {
      super(intrinsic.type());
      this.intrinsic = intrinsic;
    }
  }

  /** A struct with at least one placed element (structs of unplaced values are unplaced). */
  public static final class StructNode extends Node {
    final List<Optional<String>> names;
    final List<Node> elements;

    StructNode(Type type, List<Optional<String>> names, List<Node> elements) {
      super(type);
      this.names = List.copyOf(names);
      this.elements = List.copyOf(elements);
    }
  }
}
