package io.tributary.core.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds a struct from element values: {@code <a=x,y>}.
 *
 * @param elements the elements in order, each with an optional name
 */
public record Struct(List<Element> elements) implements BuildingBlock {
  /** One element, {@code name=value} or just {@code value}. */
  public record Element(Optional<String> name, BuildingBlock value) {
    public Element {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      name.ifPresent(n -> Identifiers.requireVariable(n, "struct element name"));
    }
  }

  public Struct {
    elements = List.copyOf(elements);
  }

  /** A struct of unnamed elements. */
  public static Struct of(BuildingBlock... values) {
    List<Element> list = new ArrayList<>();
    for (BuildingBlock v : values) {
      list.add(new Element(Optional.empty(), v));
    }
    return new Struct(list);
  }

  @Override
  public String toString() {
    return BlockPrinter.print(this);
  }
}
