package io.tributary.tensor.npy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for the interop manifests: parses objects, arrays, strings, numbers, booleans
 * and null into maps, lists and Java values, and writes the same back.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.space();
    if (j.pos != text.length()) {
      throw j.error("trailing text");
    }
    return v;
  }

  private Object value() {
    space();
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    space();
    if (text.charAt(pos) == '}') {
      pos++;
      return m;
    }
    while (true) {
      space();
      String key = string();
      space();
      expect(':');
      m.put(key, value());
      space();
      if (text.charAt(pos) == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    pos++;
    space();
    if (text.charAt(pos) == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value());
      space();
      if (text.charAt(pos) == ',') {
        pos++;
      } else {
        expect(']');
        return l;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'r' -> sb.append('\r');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'u' -> {
          sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> sb.append(e);
      }
    }
  }

  private Object number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    String n = text.substring(start, pos);
    if (n.isEmpty()) {
      throw error("unexpected character");
    }
    return n.contains(".") || n.contains("e") || n.contains("E") ? (Object) Double.parseDouble(n) : (Object) Long.parseLong(n);
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private void space() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private void expect(char c) {
    if (text.charAt(pos) != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
  }

  /** Writes maps, lists, strings, numbers, booleans and null as JSON. */
  static String write(Object v) {
    StringBuilder sb = new StringBuilder();
    write(v, sb);
    return sb.toString();
  }

  private static void write(Object v, StringBuilder sb) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '"' || c == '\\') {
          sb.append('\\').append(c);
        } else if (c < 0x20 || Character.isSurrogate(c)) {
          sb.append(String.format("\\u%04x", (int) c));
        } else {
          sb.append(c);
        }
      }
      sb.append('"');
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(first ? "" : ",");
        first = false;
        write(String.valueOf(e.getKey()), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : ",");
        write(l.get(i), sb);
      }
      sb.append(']');
    } else {
      sb.append(v);
    }
  }
}
