package io.tributary.core.proto;

import io.tributary.core.compiler.JavaFunction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves the names of local Java functions found in a serialized computation to functions this
 * process knows. Names are never turned into classes.
 */
@FunctionalInterface
public interface LocalResolver {
  /** The Java function registered under {@code name}, if any. */
  Optional<JavaFunction> javaFunction(String name);

  /** A resolver that knows no local functions. */
  static LocalResolver none() {
    return name -> Optional.empty();
  }

  /** A resolver over the given functions, looked up by name. */
  static LocalResolver of(List<JavaFunction> functions) {
    Map<String, JavaFunction> byName = new HashMap<>();
    for (JavaFunction f : functions) {
      JavaFunction old = byName.put(f.name(), f);
      if (old != null && !old.equals(f)) {
        throw new IllegalArgumentException("two local functions named " + f.name());
      }
    }
    Map<String, JavaFunction> frozen = Map.copyOf(byName);
    return name -> Optional.ofNullable(frozen.get(name));
  }
}
