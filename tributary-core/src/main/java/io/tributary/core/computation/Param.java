package io.tributary.core.computation;

import io.tributary.core.types.Type;
import io.tributary.core.types.Types;
import java.util.Objects;

/**
 * A named parameter of a computation.
 *
 * @param name the parameter's name, shown in the printed computation
 * @param type its type
 */
public record Param(String name, Type type) {
  public Param {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  public static Param of(String name, Type type) {
    return new Param(name, type);
  }

  /** A parameter whose type is given in compact notation. */
  public static Param of(String name, String type) {
    return new Param(name, Types.parse(type));
  }
}
