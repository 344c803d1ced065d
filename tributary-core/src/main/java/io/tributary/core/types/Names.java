package io.tributary.core.types;

import io.tributary.tensor.DType;

/** Rules for the names that appear in types: struct element names and abstract labels. */
final class Names {
  private Names() {}

  static boolean isIdentifier(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    if (!(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return false;
      }
    }
    return true;
  }

  static void requireIdentifier(String s) {
    if (!isIdentifier(s)) {
      throw new IllegalArgumentException(
          "'" + s + "' is not a name: names start with a letter or '_' and go on with letters,"
              + " digits or '_'");
    }
  }

  /** Words the parser reads as something other than an abstract type. */
  static boolean isReserved(String s) {
    if (s.equals("placement")) {
      return true;
    }
    for (DType d : DType.values()) {
      if (d.typeName().equals(s)) {
        return true;
      }
    }
    return false;
  }
}
