package io.tributary.core.compiler;

import java.util.Objects;

/**
 * Selects one element of a struct, by name ({@code x.weights}) or by index ({@code x[0]}).
 *
 * @param source the struct-typed expression to select from
 * @param key which element
 */
public record Selection(BuildingBlock source, Key key) implements BuildingBlock {
  /** How an element is chosen. */
  public sealed interface Key permits ByName, ByIndex {}

  /** Selects the element with this name. */
  public record ByName(String name) implements Key {
    public ByName {
      Identifiers.requireVariable(name, "selected name");
    }
  }

  /** Selects the element at this zero-based position. */
  public record ByIndex(int index) implements Key {
    public ByIndex {
      if (index < 0) {
        throw new IllegalArgumentException("selection index " + index + " is negative");
      }
    }
  }

  public Selection {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(key, "key");
  }

  public static Selection byName(BuildingBlock source, String name) {
    return new Selection(source, new ByName(name));
  }

  public static Selection byIndex(BuildingBlock source, int index) {
    return new Selection(source, new ByIndex(index));
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
