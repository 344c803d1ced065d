package io.tributary.flower.fleet.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few JSON shapes Flower's object bodies use, written byte for byte as Python's
 * {@code json.dumps} writes them (separators {@code ", "} and {@code ": "}, {@code ensure_ascii}),
 * and read back strictly: a dict of strings to strings, or the flat dict of an {@code Array}'s
 * metadata.
 */
final class PyJson {
  private PyJson() {}

  static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /** {@code json.dumps(dict)} of a str-to-str dict. */
  static String stringMap(Map<String, String> m) {
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : m.entrySet()) {
      if (!first) {
        b.append(", ");
      }
      first = false;
      string(b, e.getKey());
      b.append(": ");
      string(b, e.getValue());
    }
    return b.append('}').toString();
  }

  static String intList(int[] xs) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < xs.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(xs[i]);
    }
    return b.append(']').toString();
  }

  /** A strict reader of the JSON Flower writes; any deviation is a {@link IllegalArgumentException}. */
  static final class Reader {
    private final String s;
    private int i;

    Reader(String s) {
      this.s = s;
    }

    private IllegalArgumentException bad(String what) {
      return new IllegalArgumentException("malformed JSON at " + i + ": " + what);
    }

    private void ws() {
      while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\t'
          || s.charAt(i) == '\r')) {
        i++;
      }
    }

    private void expect(char c) {
      ws();
      if (i >= s.length() || s.charAt(i) != c) {
        throw bad("expected '" + c + "'");
      }
      i++;
    }

    private boolean peek(char c) {
      ws();
      return i < s.length() && s.charAt(i) == c;
    }

    void end() {
      ws();
      if (i != s.length()) {
        throw bad("trailing characters");
      }
    }

    String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        if (i >= s.length()) {
          throw bad("unterminated string");
        }
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i >= s.length()) {
          throw bad("unterminated escape");
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw bad("short \\u escape");
            }
            try {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException ex) {
              throw bad("bad \\u escape");
            }
            i += 4;
          }
          default -> throw bad("bad escape");
        }
      }
    }

    long integer() {
      ws();
      int start = i;
      if (i < s.length() && s.charAt(i) == '-') {
        i++;
      }
      while (i < s.length() && Character.isDigit(s.charAt(i))) {
        i++;
      }
      if (start == i || i - start > 18) {
        throw bad("expected a small integer");
      }
      return Long.parseLong(s.substring(start, i));
    }

    List<Long> intList(int max) {
      expect('[');
      List<Long> out = new ArrayList<>();
      if (peek(']')) {
        i++;
        return out;
      }
      do {
        if (out.size() >= max) {
          throw bad("list longer than " + max);
        }
        out.add(integer());
      } while (comma());
      expect(']');
      return out;
    }

    private boolean comma() {
      if (peek(',')) {
        i++;
        return true;
      }
      return false;
    }

    /** A dict of strings to strings, in order; duplicate keys are refused. */
    LinkedHashMap<String, String> stringMap() {
      LinkedHashMap<String, String> m = new LinkedHashMap<>();
      expect('{');
      if (peek('}')) {
        i++;
        return m;
      }
      do {
        String k = string();
        expect(':');
        if (m.put(k, string()) != null) {
          throw bad("duplicate key '" + k + "'");
        }
      } while (comma());
      expect('}');
      return m;
    }

    /**
     * A dict of at most {@code max} keys whose values are strings, integers, {@code null},
     * {@code true} or {@code false}, such as an HTTP error body; anything nested is refused.
     */
    LinkedHashMap<String, Object> flatObject(int max) {
      LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      expect('{');
      if (peek('}')) {
        i++;
        return m;
      }
      do {
        if (m.size() >= max) {
          throw bad("more than " + max + " keys");
        }
        String k = string();
        expect(':');
        ws();
        Object v;
        if (peek('"')) {
          v = string();
        } else if (s.startsWith("null", i)) {
          i += 4;
          v = null;
        } else if (s.startsWith("true", i)) {
          i += 4;
          v = true;
        } else if (s.startsWith("false", i)) {
          i += 5;
          v = false;
        } else {
          v = integer();
        }
        m.put(k, v);
      } while (comma());
      expect('}');
      end();
      return m;
    }

    /** Opens a dict and reads its first key. */
    String firstKey() {
      expect('{');
      String k = string();
      expect(':');
      return k;
    }

    /** Reads {@code , "key":}. */
    String nextKey() {
      expect(',');
      String k = string();
      expect(':');
      return k;
    }

    void close() {
      expect('}');
    }
  }
}
