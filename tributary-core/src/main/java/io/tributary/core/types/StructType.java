package io.tributary.core.types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An ordered struct of elements, each with an optional name: {@code <a=int32,float32>}.
 *
 * @param elements the elements in order; names are identifiers and distinct
 */
public record StructType(List<Element> elements) implements Type {
  /** One element of a struct type, {@code name=T} or just {@code T}. */
  public record Element(Optional<String> name, Type type) {
    public Element {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      name.ifPresent(Names::requireIdentifier);
    }

    public static Element named(String name, Type type) {
      return new Element(Optional.of(name), type);
    }

    public static Element unnamed(Type type) {
      return new Element(Optional.empty(), type);
    }
  }

  public StructType {
    elements = List.copyOf(elements);
    Set<String> seen = new HashSet<>();
    for (Element e : elements) {
      if (e.name().isPresent() && !seen.add(e.name().get())) {
        throw new IllegalArgumentException(
            "struct type has two elements named '" + e.name().get() + "'");
      }
    }
  }

  /** A struct of unnamed elements. */
  public static StructType of(Type... types) {
    List<Element> list = new ArrayList<>();
    for (Type t : types) {
      list.add(Element.unnamed(t));
    }
    return new StructType(list);
  }

  /** A struct built from alternating names and types: {@code named("a", t1, "b", t2)}. */
  public static StructType named(Object... nameTypePairs) {
    if (nameTypePairs.length % 2 != 0) {
      throw new IllegalArgumentException("named(...) takes name, type pairs");
    }
    List<Element> list = new ArrayList<>();
    for (int i = 0; i < nameTypePairs.length; i += 2) {
      list.add(Element.named((String) nameTypePairs[i], (Type) nameTypePairs[i + 1]));
    }
    return new StructType(list);
  }

  public int size() {
    return elements.size();
  }

  public Type get(int index) {
    return elements.get(index).type();
  }

  /** The position of the element with this name, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < elements.size(); i++) {
      if (elements.get(i).name().equals(Optional.of(name))) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return compact();
  }
}
