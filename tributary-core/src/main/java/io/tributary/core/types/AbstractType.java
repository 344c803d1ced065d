package io.tributary.core.types;

/**
 * A type variable in an intrinsic's template signature, such as {@code T} in
 * {@code ({T}@CLIENTS -> T@SERVER)}.
 *
 * @param label the variable's name; an identifier starting with an upper-case letter
 */
public record AbstractType(String label) implements Type {
  public AbstractType {
    Names.requireIdentifier(label);
    if (!Character.isUpperCase(label.charAt(0))) {
      throw new IllegalArgumentException(
          "abstract type label '" + label + "' must start with an upper-case letter");
    }
    if (Names.isReserved(label)) {
      throw new IllegalArgumentException(
          "'" + label + "' is a dtype or keyword and cannot label an abstract type");
    }
  }

  @Override
  public String toString() {
    return compact();
  }
}
