package io.tributary.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON parser for tests, so that the CLI's JSON output is checked by a reader
 * that rejects anything a real JSON library would reject (NaN, trailing commas, bad escapes).
 *
 * <p>Objects become {@link LinkedHashMap}, arrays {@link List}, numbers {@link BigDecimal},
 * strings {@link String}, booleans {@link Boolean}, and {@code null} is {@link #NULL}.
 */
final class StrictJson {
  /** Stands for JSON {@code null}, since maps and lists here hold no Java nulls. */
  static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  private final String text;
  private int pos;

  private StrictJson(String text) {
    this.text = text;
  }

  /** Parses {@code text}, which must hold exactly one JSON value and optional whitespace. */
  static Object parse(String text) {
    StrictJson p = new StrictJson(text);
    p.skipWhitespace();
    Object value = p.value();
    p.skipWhitespace();
    if (p.pos != text.length()) {
      throw p.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", NULL);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      if (map.put(key, value()) != null) {
        throw error("duplicate key " + key);
      }
      skipWhitespace();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      skipWhitespace();
      list.add(value());
      skipWhitespace();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder s = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return s.toString();
      }
      if (c < 0x20) {
        throw error("raw control character in string");
      }
      if (c != '\\') {
        s.append(c);
        continue;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> s.append(e);
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> {
          s.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private BigDecimal number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (peek() >= '1' && peek() <= '9') {
      digits();
    } else {
      throw error("expected a value");
    }
    if (peek() == '.') {
      pos++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      digits();
    }
    return new BigDecimal(text.substring(start, pos));
  }

  private void digits() {
    int start = pos;
    while (peek() >= '0' && peek() <= '9') {
      pos++;
    }
    if (pos == start) {
      throw error("expected a digit");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipWhitespace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("invalid JSON at " + pos + ": " + what);
  }
}
