package io.tributary.core.compiler;

/** The rule for names bound and referenced in computations. */
final class Identifiers {
  private Identifiers() {}

  static String require(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
    char first = name.charAt(0);
    boolean ok = Character.isLetter(first) || first == '_';
    for (int i = 1; ok && i < name.length(); i++) {
      char c = name.charAt(i);
      ok = Character.isLetterOrDigit(c) || c == '_';
    }
    if (!ok) {
      throw new IllegalArgumentException(
          what + " '" + name + "' is not a name (letters, digits and '_', not starting with a"
              + " digit)");
    }
    return name;
  }
}
