package io.tributary.runtime.executor.internal.local;

import java.util.Optional;

/**
 * Names bound to local values: a persistent linked list, so that inner scopes share outer ones
 * and a closure keeps exactly the scope it was made in.
 */
public final class Env {
  /** No names bound. */
  public static final Env EMPTY = new Env(null, null, null);

  private final String name;
  private final Object value;
  private final Env outer;

  private Env(String name, Object value, Env outer) {
    this.name = name;
    this.value = value;
    this.outer = outer;
  }

  /** This environment with {@code n} bound to {@code v}, shadowing an outer {@code n}. */
  public Env bind(String n, Object v) {
    return new Env(n, v, this);
  }

  Optional<Object> lookup(String n) {
    for (Env e = this; e.name != null; e = e.outer) {
      if (e.name.equals(n)) {
        return Optional.of(e.value);
      }
    }
    return Optional.empty();
  }
}
