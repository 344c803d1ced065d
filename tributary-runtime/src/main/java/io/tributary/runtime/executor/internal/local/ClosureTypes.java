package io.tributary.runtime.executor.internal.local;

import io.tributary.core.compiler.Lambda;
import io.tributary.core.types.Type;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the reference resolving executor works out about a lambda it hands down as a function
 * value: the names the lambda captures, and its function type given their types. Both depend on
 * nothing but the lambda and those types, so an execution context keeps them across invocations;
 * without it, every round of a learning process type-checks the same few lambdas again, on the
 * thread that waits for the round.
 *
 * <p>Lambdas are told apart by identity: a computation's building blocks are the same objects on
 * every invocation, and an equal lambda elsewhere is only worked out once more. A type is kept
 * with the captured types it was inferred for and used only for the same ones (by {@code
 * equals}). At most {@value #MAX_LAMBDAS} lambdas are kept; past that the memo starts afresh, so
 * a context that runs ever new computations holds a bounded number. Safe for concurrent
 * invocations.
 */
public final class ClosureTypes {
  /** The most lambdas remembered at once. */
  static final int MAX_LAMBDAS = 4096;

  /**
   * One lambda's free names, and the type and locality last inferred for the captured types
   * {@code captured} (null before any was).
   */
  private record Known(List<String> free, List<Type> captured, Type type, boolean local) {}

  /**
   * A lambda's function type for given captured types, and whether that type is local (only
   * local functions may be handed down).
   *
   * @param type the lambda's function type
   * @param local whether {@code type} is local
   */
  public record Inferred(Type type, boolean local) {}

  private final Map<Lambda, Known> known = new IdentityHashMap<>();

  /** An empty memo. */
  public ClosureTypes() {}

  /**
   * The names {@code lambda} refers to without binding them, in order of first use: remembered,
   * or computed by {@code compute} (which must depend on the lambda only) and remembered.
   */
  public List<String> freeNames(Lambda lambda, Function<Lambda, List<String>> compute) {
    synchronized (known) {
      Known k = known.get(lambda);
      if (k != null) {
        return k.free();
      }
    }
    List<String> free = List.copyOf(compute.apply(lambda));
    synchronized (known) {
      if (known.size() >= MAX_LAMBDAS) {
        known.clear();
      }
      known.putIfAbsent(lambda, new Known(free, null, null, false));
      return known.get(lambda).free();
    }
  }

  /** The type remembered for {@code lambda} with captured types {@code captured}, if any. */
  public Optional<Inferred> type(Lambda lambda, List<Type> captured) {
    synchronized (known) {
      Known k = known.get(lambda);
      if (k == null || k.captured() == null || !k.captured().equals(captured)) {
        return Optional.empty();
      }
      return Optional.of(new Inferred(k.type(), k.local()));
    }
  }

  /**
   * Remembers {@code inferred} as {@code lambda}'s type with captured types {@code captured}
   * (replacing one for other captured types); its free names must have been asked for first.
   */
  public void remember(Lambda lambda, List<Type> captured, Inferred inferred) {
    synchronized (known) {
      Known k = known.get(lambda);
      if (k != null) {
        known.put(lambda, new Known(k.free(), List.copyOf(captured), inferred.type(),
            inferred.local()));
      }
    }
  }

  /** The number of lambdas remembered, for tests. */
  int size() {
    synchronized (known) {
      return known.size();
    }
  }
}
