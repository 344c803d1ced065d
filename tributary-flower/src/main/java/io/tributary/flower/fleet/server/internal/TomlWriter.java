package io.tributary.flower.fleet.server.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes what {@link TomlReader} read as Python's {@code tomli_w.dumps} (1.x, default options)
 * writes it, character for character, because {@code flwr build} puts that text into the FAB and
 * the FAB's hash covers it: a table's plain values first (as {@code key = value} lines), then its
 * tables, a header only for a table with values of its own (or none at all), a blank line before
 * each table but the first; arrays one item per line indented by four spaces with a trailing
 * comma; strings in double quotes with {@code tomli_w}'s escapes; floats as Python's
 * {@code str(float)}; an array of tables as {@code [[name]]} unless every table fits inline in
 * 100 characters.
 */
final class TomlWriter {
  private static final int MAX_LINE_LENGTH = 100;
  private static final String INDENT = "    ";

  private TomlWriter() {}

  /** The text {@code tomli_w.dumps(document)} returns. */
  static String write(Map<String, Object> document) {
    StringBuilder out = new StringBuilder();
    table(out, document, "", false);
    return out.toString();
  }

  private record Sub(String key, Map<String, Object> table, boolean inArray) {}

  @SuppressWarnings("unchecked")
  private static void table(StringBuilder out, Map<String, Object> table, String name,
      boolean inArray) {
    boolean yielded = false;
    List<Map.Entry<String, Object>> literals = new ArrayList<>();
    List<Sub> tables = new ArrayList<>();
    for (Map.Entry<String, Object> e : table.entrySet()) {
      Object v = e.getValue();
      if (v instanceof Map) {
        tables.add(new Sub(e.getKey(), (Map<String, Object>) v, false));
      } else if (isArrayOfTables(v) && !((List<Object>) v).stream()
          .allMatch(t -> fitsInline((Map<String, Object>) t))) {
        for (Object t : (List<Object>) v) {
          tables.add(new Sub(e.getKey(), (Map<String, Object>) t, true));
        }
      } else {
        literals.add(e);
      }
    }
    if (inArray || !name.isEmpty() && (!literals.isEmpty() || tables.isEmpty())) {
      yielded = true;
      out.append(inArray ? "[[" + name + "]]\n" : "[" + name + "]\n");
    }
    if (!literals.isEmpty()) {
      yielded = true;
      for (Map.Entry<String, Object> e : literals) {
        out.append(key(e.getKey())).append(" = ").append(literal(e.getValue(), 0)).append('\n');
      }
    }
    for (Sub t : tables) {
      if (yielded) {
        out.append('\n');
      } else {
        yielded = true;
      }
      String part = key(t.key());
      table(out, t.table(), name.isEmpty() ? part : name + "." + part, t.inArray());
    }
  }

  private static boolean isArrayOfTables(Object v) {
    return v instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(x -> x instanceof Map);
  }

  private static boolean fitsInline(Map<String, Object> t) {
    String rendered = INDENT + inlineTable(t) + ",";
    return rendered.codePointCount(0, rendered.length()) <= MAX_LINE_LENGTH
        && rendered.indexOf('\n') < 0;
  }

  @SuppressWarnings("unchecked")
  private static String literal(Object v, int nest) {
    return switch (v) {
      case Boolean b -> b ? "true" : "false";
      case BigInteger i -> i.toString();
      case Long l -> l.toString();
      case Double d -> pythonFloat(d);
      case String s -> string(s);
      case List<?> l -> array((List<Object>) l, nest);
      case Map<?, ?> m -> inlineTable((Map<String, Object>) m);
      default -> throw new IllegalArgumentException("not a TOML value: " + v);
    };
  }

  private static String array(List<Object> items, int nest) {
    if (items.isEmpty()) {
      return "[]";
    }
    String itemIndent = INDENT.repeat(1 + nest);
    StringBuilder b = new StringBuilder("[\n");
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(",\n");
      }
      b.append(itemIndent).append(literal(items.get(i), nest + 1));
    }
    return b.append(",\n").append(INDENT.repeat(nest)).append(']').toString();
  }

  private static String inlineTable(Map<String, Object> t) {
    if (t.isEmpty()) {
      return "{}";
    }
    StringBuilder b = new StringBuilder("{ ");
    boolean first = true;
    for (Map.Entry<String, Object> e : t.entrySet()) {
      if (!first) {
        b.append(", ");
      }
      first = false;
      b.append(key(e.getKey())).append(" = ").append(literal(e.getValue(), 0));
    }
    return b.append(" }").toString();
  }

  private static String key(String k) {
    if (k.isEmpty()) {
      return string(k);
    }
    for (int i = 0; i < k.length(); i++) {
      char c = k.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
          || c == '_')) {
        return string(k);
      }
    }
    return k;
  }

  /** A basic string with {@code tomli_w}'s escapes (its default: never multi-line). */
  static String string(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\b' -> b.append("\\b");
        case '\n' -> b.append("\\n");
        case '\f' -> b.append("\\f");
        case '\r' -> b.append("\\r");
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        default -> {
          if (c < 0x20 && c != '\t' || c == 0x7f) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /**
   * Python's {@code str(float)}: the shortest digits that read back as {@code d} (the JDK's
   * {@link Double#toString} finds the same), positional for decimal exponents from -4 to 15
   * (with {@code .0} when whole), else {@code d.ddde+XX} with at least two exponent digits.
   */
  static String pythonFloat(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal v = shortest(Math.abs(d));
    String digits = v.unscaledValue().toString();
    int exp = digits.length() - 1 - v.scale();
    String sign = d < 0 ? "-" : "";
    if (exp < -4 || exp >= 16) {
      String mantissa = digits.length() == 1 ? digits
          : digits.charAt(0) + "." + digits.substring(1);
      String e = String.valueOf(Math.abs(exp));
      return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
    if (exp < 0) {
      return sign + "0." + "0".repeat(-exp - 1) + digits;
    }
    if (digits.length() <= exp + 1) {
      return sign + digits + "0".repeat(exp + 1 - digits.length()) + ".0";
    }
    return sign + digits.substring(0, exp + 1) + "." + digits.substring(exp + 1);
  }

  /**
   * The shortest decimal that reads back as {@code a} (positive), the closest one if several:
   * {@link Double#toString} gives that, except that it never gives fewer than two digits, so a
   * one-digit decimal that also reads back (as Python's repr finds, {@code 5e-324}) is tried.
   */
  private static BigDecimal shortest(double a) {
    BigDecimal v = new BigDecimal(Double.toString(a)).stripTrailingZeros();
    if (v.precision() != 2) {
      return v;
    }
    BigDecimal exact = new BigDecimal(a);
    BigDecimal best = null;
    for (java.math.RoundingMode m : new java.math.RoundingMode[] {java.math.RoundingMode.FLOOR,
        java.math.RoundingMode.CEILING}) {
      BigDecimal c = v.round(new java.math.MathContext(1, m));
      if (c.signum() > 0 && Double.parseDouble(c.toString()) == a && (best == null
          || c.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
        best = c;
      }
    }
    return best == null ? v : best.stripTrailingZeros();
  }
}
