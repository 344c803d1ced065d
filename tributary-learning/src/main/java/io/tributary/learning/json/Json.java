package io.tributary.learning.json;

import java.math.BigInteger;

/**
 * Writes the few JSON values Tributary prints: strings, integers, doubles and null.
 *
 * <p>JSON has no literal for NaN or the infinities, so they are written as the strings
 * {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} (the spelling of Java and of
 * Python's {@code json} module), which keeps the output valid JSON.
 */
public final class Json {
  private Json() {}

  /** {@code s} as a quoted JSON string, escaping quotes, backslashes and control characters. */
  public static String string(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          // U+2028/2029 are legal in JSON but break JavaScript consumers; escaping them costs nothing.
          if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c) && !isPaired(s, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static boolean isPaired(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  /** A statistic as JSON: {@code null}, an exact integer, a number, or a string for NaN and infinities. */
  public static String number(Number n) {
    if (n == null) {
      return "null";
    }
    if (n instanceof Long || n instanceof BigInteger) {
      return n.toString();
    }
    double d = n.doubleValue();
    if (Double.isNaN(d)) {
      return "\"NaN\"";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    }
    // Double.toString never yields a form JSON rejects once NaN and the infinities are excluded.
    return Double.toString(d);
  }
}
