package io.tributary.core.compiler;

/**
 * A use of a name bound by an enclosing {@link Lambda} parameter or {@link Block} local.
 *
 * @param name the referenced name
 */
public record Reference(String name) implements BuildingBlock {
  public Reference {
    Identifiers.requireVariable(name, "reference name");
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
