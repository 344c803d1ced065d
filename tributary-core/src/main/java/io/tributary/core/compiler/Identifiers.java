package io.tributary.core.compiler;

/** The rules for names bound and referenced in computations. */
final class Identifiers {
  /** Longer variable names are refused: no writer needs them, and they bound what a reader keeps. */
  static final int MAX_VARIABLE_LENGTH = 4096;

  private Identifiers() {}

  /**
   * A name that Tributary itself gives to something it stores by name (a local function, a graph
   * procedure, a setting): letters, digits and {@code _}, not starting with a digit.
   */
  static String require(String name, String what) {
    nonEmpty(name, what);
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

  /**
   * A variable or element name: any non-empty text without control characters, at most
   * {@value #MAX_VARIABLE_LENGTH} characters. federated-language accepts any string here and its
   * tracer writes names such as {@code <lambda>_arg}, so Tributary reads them as they are.
   */
  static String requireVariable(String name, String what) {
    nonEmpty(name, what);
    if (name.length() > MAX_VARIABLE_LENGTH) {
      throw new IllegalArgumentException(what + " is " + name.length()
          + " characters long (at most " + MAX_VARIABLE_LENGTH + ")");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        throw new IllegalArgumentException(what + " '" + name.replaceAll("\\p{Cntrl}", "?")
            + "' contains a control character at position " + i);
      }
    }
    return name;
  }

  private static void nonEmpty(String name, String what) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
  }
}
