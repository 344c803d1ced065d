package io.tributary.runtime.executor;

import java.util.Optional;

/**
 * Names bound to local values: a persistent linked list, so that inner scopes share outer ones
 * and a closure keeps exactly the scope it was made in.
 */
final class Env {
  static final Env EMPTY = new Env(null, null, null);

  private final String name;
  private final Object value;
  private final Env outer;

  private Env(String name, Object value, Env outer) {
    this.name = name;
    this.value = value;
    this.outer = outer;
  }

  Env bind(String n, Object v) {
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
