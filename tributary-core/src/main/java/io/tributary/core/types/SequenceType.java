package io.tributary.core.types;

import java.util.Objects;

/**
 * The type of a sequence whose elements are consumed in order, {@code T*} in compact notation.
 *
 * @param element the type of every element; it may not contain a sequence, function, federated
 *     or placement type
 */
public record SequenceType(Type element) implements Type {
  public SequenceType {
    Objects.requireNonNull(element, "element");
    Nesting.checkSequenceElement(element);
  }

  @Override
  public String toString() {
    return compact();
  }
}
