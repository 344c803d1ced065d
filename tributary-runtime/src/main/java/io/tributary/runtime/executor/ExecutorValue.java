package io.tributary.runtime.executor;

import io.tributary.core.types.Type;

/**
 * A value owned by an {@link Executor}: opaque to everyone else, it can only be passed back to
 * the executor that made it, combined into calls, structs and selections, or materialized.
 */
public interface ExecutorValue {
  /** The value's type in the Federated Core. */
  Type type();
}
