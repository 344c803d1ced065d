package io.tributary.core.compiler;

import java.util.Objects;
import java.util.Optional;

/**
 * One problem found by the type checker.
 *
 * @param path where in the computation, such as {@code $.result.argument[1]}: {@code $} is the
 *     root, {@code .result} the body of a lambda or block, {@code .locals[x]} a block local,
 *     {@code .function} and {@code .argument} the parts of a call, {@code [i]} a struct element
 *     and {@code .source} what a selection selects from
 * @param message what is wrong
 * @param expected the expected type in compact notation, when there is one
 * @param actual the actual type in compact notation, when there is one
 */
public record Diagnostic(
    String path, String message, Optional<String> expected, Optional<String> actual) {
  /** The longest path, message or type a diagnostic keeps; longer ones are cut. */
  public static final int MAX_PART = 4096;

  public Diagnostic {
    path = cut(Objects.requireNonNull(path, "path"));
    message = cut(Objects.requireNonNull(message, "message"));
    expected = Objects.requireNonNull(expected, "expected").map(Diagnostic::cut);
    actual = Objects.requireNonNull(actual, "actual").map(Diagnostic::cut);
  }

  /** {@code s} cut after {@link #MAX_PART} characters, saying how long it was. */
  static String cut(String s) {
    return s.length() <= MAX_PART ? s : s.substring(0, MAX_PART) + "... (" + s.length()
        + " characters)";
  }

  static Diagnostic of(String path, String message) {
    return new Diagnostic(path, message, Optional.empty(), Optional.empty());
  }

  static Diagnostic of(String path, String message, String expected, String actual) {
    return new Diagnostic(path, message, Optional.of(expected), Optional.of(actual));
  }

  /** {@code path: message (expected X, actual Y)}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(path).append(": ").append(message);
    if (expected.isPresent() || actual.isPresent()) {
      sb.append(" (expected ").append(expected.orElse("-"))
          .append(", actual ").append(actual.orElse("-")).append(')');
    }
    return sb.toString();
  }
}
