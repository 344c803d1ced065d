package io.tributary.flower.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code flower-supernode --node-config}: space- or comma-separated {@code key=value}
 * pairs whose values are TOML scalars, as Flower reads them: {@code "text"} or {@code 'text'}
 * (strings), {@code true}/{@code false}, integers (as {@link Long}) and floats (as
 * {@link Double}). An unquoted value that is none of these is taken as a string.
 */
public final class NodeConfig {
  private NodeConfig() {}

  /**
   * The pairs of {@code text}, in order.
   *
   * @throws IllegalArgumentException for a pair without {@code =}, an empty key or an unclosed
   *     quote
   */
  public static Map<String, Object> parse(String text) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String pair : split(text)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("node config '" + pair + "' is not key=value");
      }
      out.put(pair.substring(0, eq).strip(), value(pair.substring(eq + 1).strip()));
    }
    return out;
  }

  private static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        cur.append(c);
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        cur.append(c);
      } else if (Character.isWhitespace(c) || c == ',') {
        if (!cur.isEmpty()) {
          out.add(cur.toString());
          cur.setLength(0);
        }
      } else {
        cur.append(c);
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unclosed quote in node config '" + text + "'");
    }
    if (!cur.isEmpty()) {
      out.add(cur.toString());
    }
    return out;
  }

  private static Object value(String v) {
    if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'')
        && v.charAt(v.length() - 1) == v.charAt(0)) {
      return v.substring(1, v.length() - 1);
    }
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    String n = v.replace("_", "");
    try {
      return Long.parseLong(n);
    } catch (NumberFormatException e) {
      try {
        if (!n.isEmpty() && (Character.isDigit(n.charAt(n.length() - 1)) || n.endsWith("."))) {
          return Double.parseDouble(n);
        }
      } catch (NumberFormatException e2) {
        // a bare string
      }
    }
    return v;
  }
}
