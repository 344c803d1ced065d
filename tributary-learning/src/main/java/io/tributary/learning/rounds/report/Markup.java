package io.tributary.learning.rounds.report;

import java.util.Locale;

/** Escaping and number formatting shared by the SVG and HTML writers. */
final class Markup {
  private Markup() {}

  /** {@code s} safe as XML/HTML text or as a double-quoted attribute value. */
  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          // XML 1.0 forbids most control characters even when escaped; a label never needs them.
          if (c < 0x20 && c != '\n' && c != '\t') {
            out.append('?');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** A coordinate with two decimals, always with a dot whatever the default locale. */
  static String coord(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /**
   * A tick or figure label: integers without decimals, otherwise just enough significant digits
   * for {@code step}-spaced ticks to be told apart.
   */
  static String tick(double v, double step) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    int decimals = (int) Math.max(0, Math.min(10, Math.ceil(-Math.log10(step)) + 0.0));
    if (Math.abs(step) < 1e-10 || Math.abs(v) >= 1e7) {
      return String.format(Locale.ROOT, "%.3g", v);
    }
    String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
    return s.equals("-0") || s.matches("-0\\.0*") ? s.substring(1) : s;
  }
}
