package io.tributary.flower.fleet.server.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a TOML 1.0 document into the values Python's {@code tomli} gives, in document order, so
 * that {@link TomlWriter} can write it back as {@code tomli_w} does: tables are
 * {@code LinkedHashMap<String, Object>} (created where first named, as Python's dicts keep
 * insertion order), arrays {@code List<Object>}, integers {@code BigInteger}, floats
 * {@code Double}, booleans and strings as themselves.
 *
 * <p>Dates and times are refused (a Flower App's {@code pyproject.toml} has no use for them and
 * {@code tomli_w} writes them in a form of its own); so is every malformed or redefined key, with
 * its line number.
 */
final class TomlReader {
  private final String s;
  private final String where;
  private int pos;
  private final Map<String, Object> root = new LinkedHashMap<>();
  /** Tables that a {@code [header]} or a key/value line defined (may not be defined again). */
  private final Set<Object> defined = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  /** Tables made by a dotted key (may not later get a header). */
  private final Set<Object> dotted = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  /** Inline tables and static arrays: closed to later additions. */
  private final Set<Object> sealed = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

  private TomlReader(String s, String where) {
    this.s = s;
    this.where = where;
  }

  /**
   * The document {@code text}; {@code where} names it in errors.
   *
   * @throws IllegalArgumentException naming the line of what is not TOML (or is a date)
   */
  static Map<String, Object> read(String text, String where) {
    TomlReader r = new TomlReader(text.startsWith("\uFEFF") ? text.substring(1) : text, where);
    r.document();
    return r.root;
  }

  private IllegalArgumentException error(String what) {
    int line = 1;
    for (int i = 0; i < Math.min(pos, s.length()); i++) {
      if (s.charAt(i) == '\n') {
        line++;
      }
    }
    return new IllegalArgumentException(where + " line " + line + ": " + what);
  }

  private boolean more() {
    return pos < s.length();
  }

  private char peek() {
    return s.charAt(pos);
  }

  private void spaces() {
    while (more() && (peek() == ' ' || peek() == '\t')) {
      pos++;
    }
  }

  /** Spaces, then a comment or nothing, then a newline or the end. */
  private void endOfLine() {
    spaces();
    if (more() && peek() == '#') {
      while (more() && peek() != '\n') {
        char c = peek();
        if (c < 0x20 && c != '\t' && c != '\r' || c == 0x7f) {
          throw error("control character in a comment");
        }
        pos++;
      }
    }
    if (!more()) {
      return;
    }
    if (s.startsWith("\r\n", pos)) {
      pos += 2;
    } else if (peek() == '\n') {
      pos++;
    } else {
      throw error("expected the end of the line, found '" + peek() + "'");
    }
  }

  @SuppressWarnings("unchecked")
  private void document() {
    Map<String, Object> table = root;
    while (more()) {
      spaces();
      if (!more()) {
        break;
      }
      char c = peek();
      if (c == '#' || c == '\n' || c == '\r') {
        endOfLine();
        continue;
      }
      if (c == '[') {
        boolean array = s.startsWith("[[", pos);
        pos += array ? 2 : 1;
        spaces();
        List<String> key = key();
        spaces();
        if (!s.startsWith(array ? "]]" : "]", pos)) {
          throw error("unclosed table header");
        }
        pos += array ? 2 : 1;
        endOfLine();
        table = array ? arrayTable(key) : headerTable(key);
        continue;
      }
      keyValue(table);
      endOfLine();
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> headerTable(List<String> key) {
    Map<String, Object> t = descend(root, key.subList(0, key.size() - 1), true);
    String last = key.getLast();
    Object v = t.get(last);
    if (v == null) {
      Map<String, Object> fresh = new LinkedHashMap<>();
      t.put(last, fresh);
      defined.add(fresh);
      return fresh;
    }
    if (!(v instanceof Map) || defined.contains(v) || dotted.contains(v) || sealed.contains(v)) {
      throw error("table [" + String.join(".", key) + "] is defined twice");
    }
    defined.add(v);
    return (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> arrayTable(List<String> key) {
    Map<String, Object> t = descend(root, key.subList(0, key.size() - 1), true);
    String last = key.getLast();
    Object v = t.get(last);
    if (v == null) {
      v = new ArrayList<>();
      t.put(last, v);
    } else if (!(v instanceof List) || sealed.contains(v)) {
      throw error("[[" + String.join(".", key) + "]] names a key that is not an array of tables");
    }
    Map<String, Object> fresh = new LinkedHashMap<>();
    ((List<Object>) v).add(fresh);
    return fresh;
  }

  /**
   * The table at {@code path} under {@code from}, made where missing; a path through an array
   * of tables goes to its last table (headers only).
   */
  @SuppressWarnings("unchecked")
  private Map<String, Object> descend(Map<String, Object> from, List<String> path,
      boolean header) {
    Map<String, Object> t = from;
    for (String part : path) {
      Object v = t.get(part);
      if (v == null) {
        Map<String, Object> fresh = new LinkedHashMap<>();
        t.put(part, fresh);
        if (!header) {
          dotted.add(fresh);
        }
        t = fresh;
      } else if (v instanceof Map && !sealed.contains(v)) {
        if (!header && defined.contains(v)) {
          throw error("key '" + part + "' extends a table defined elsewhere");
        }
        t = (Map<String, Object>) v;
      } else if (header && v instanceof List<?> l && !sealed.contains(v) && !l.isEmpty()
          && l.getLast() instanceof Map) {
        t = (Map<String, Object>) l.getLast();
      } else {
        throw error("key '" + part + "' is already a value");
      }
    }
    return t;
  }

  private void keyValue(Map<String, Object> table) {
    List<String> key = key();
    spaces();
    if (!more() || peek() != '=') {
      throw error("expected '=' after the key " + String.join(".", key));
    }
    pos++;
    spaces();
    Object value = value();
    Map<String, Object> t = descend(table, key.subList(0, key.size() - 1), false);
    if (t.containsKey(key.getLast())) {
      throw error("key " + String.join(".", key) + " is defined twice");
    }
    t.put(key.getLast(), value);
  }

  private List<String> key() {
    List<String> parts = new ArrayList<>();
    while (true) {
      spaces();
      if (!more()) {
        throw error("expected a key");
      }
      char c = peek();
      if (c == '"') {
        if (s.startsWith("\"\"\"", pos)) {
          throw error("a key cannot be a multi-line string");
        }
        parts.add(basicString());
      } else if (c == '\'') {
        if (s.startsWith("'''", pos)) {
          throw error("a key cannot be a multi-line string");
        }
        parts.add(literalString());
      } else {
        int start = pos;
        while (more() && bare(peek())) {
          pos++;
        }
        if (pos == start) {
          throw error("expected a key, found '" + c + "'");
        }
        parts.add(s.substring(start, pos));
      }
      spaces();
      if (more() && peek() == '.') {
        pos++;
        continue;
      }
      return parts;
    }
  }

  private static boolean bare(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
        || c == '-';
  }

  private Object value() {
    if (!more()) {
      throw error("expected a value");
    }
    char c = peek();
    if (c == '"') {
      return s.startsWith("\"\"\"", pos) ? multiLineBasic() : basicString();
    }
    if (c == '\'') {
      return s.startsWith("'''", pos) ? multiLineLiteral() : literalString();
    }
    if (c == '[') {
      return array();
    }
    if (c == '{') {
      return inlineTable();
    }
    if (s.startsWith("true", pos) && !tokenGoesOn(pos + 4)) {
      pos += 4;
      return Boolean.TRUE;
    }
    if (s.startsWith("false", pos) && !tokenGoesOn(pos + 5)) {
      pos += 5;
      return Boolean.FALSE;
    }
    return number();
  }

  private boolean tokenGoesOn(int at) {
    return at < s.length() && (bare(s.charAt(at)) || s.charAt(at) == '.');
  }

  private Object number() {
    int start = pos;
    while (more() && (bare(peek()) || peek() == '.' || peek() == '+' || peek() == ':')) {
      pos++;
    }
    String t = s.substring(start, pos);
    if (t.isEmpty()) {
      throw error("expected a value, found '" + peek() + "'");
    }
    if (t.matches("\\d{4}-\\d{2}-\\d{2}.*") || t.matches("\\d{2}:\\d{2}.*")) {
      throw error("dates and times are not supported in a Flower App's pyproject.toml");
    }
    switch (t) {
      case "inf", "+inf" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-inf" -> {
        return Double.NEGATIVE_INFINITY;
      }
      case "nan", "+nan", "-nan" -> {
        return Double.NaN;
      }
      default -> { }
    }
    if (t.matches("0x[0-9A-Fa-f]+(_[0-9A-Fa-f]+)*")) {
      return new BigInteger(t.substring(2).replace("_", ""), 16);
    }
    if (t.matches("0o[0-7]+(_[0-7]+)*")) {
      return new BigInteger(t.substring(2).replace("_", ""), 8);
    }
    if (t.matches("0b[01]+(_[01]+)*")) {
      return new BigInteger(t.substring(2).replace("_", ""), 2);
    }
    String dec = "[+-]?(0|[1-9](_?\\d)*)";
    if (t.matches(dec)) {
      return new BigInteger(t.replace("_", ""));
    }
    if (t.matches(dec + "(\\.\\d(_?\\d)*)?([eE][+-]?\\d(_?\\d)*)?")) {
      return Double.parseDouble(t.replace("_", ""));
    }
    throw error("'" + t + "' is not a TOML value");
  }

  private List<Object> array() {
    pos++;
    List<Object> out = new ArrayList<>();
    while (true) {
      blanks();
      if (!more()) {
        throw error("unclosed array");
      }
      if (peek() == ']') {
        pos++;
        sealed.add(out);
        return out;
      }
      out.add(value());
      blanks();
      if (more() && peek() == ',') {
        pos++;
      } else if (!more() || peek() != ']') {
        throw error("expected ',' or ']' in an array");
      }
    }
  }

  /** Spaces, newlines and comments (inside an array). */
  private void blanks() {
    while (more()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos++;
      } else if (c == '#') {
        while (more() && peek() != '\n') {
          pos++;
        }
      } else {
        return;
      }
    }
  }

  private Map<String, Object> inlineTable() {
    pos++;
    Map<String, Object> out = new LinkedHashMap<>();
    spaces();
    if (more() && peek() == '}') {
      pos++;
      sealed.add(out);
      return out;
    }
    while (true) {
      keyValue(out);
      spaces();
      if (!more()) {
        throw error("unclosed inline table");
      }
      if (peek() == '}') {
        pos++;
        sealInline(out);
        return out;
      }
      if (peek() != ',') {
        throw error("expected ',' or '}' in an inline table");
      }
      pos++;
    }
  }

  @SuppressWarnings("unchecked")
  private void sealInline(Map<String, Object> t) {
    sealed.add(t);
    for (Object v : t.values()) {
      if (v instanceof Map) {
        sealInline((Map<String, Object>) v);
      }
    }
  }

  private String literalString() {
    pos++;
    int start = pos;
    while (more() && peek() != '\'') {
      if (peek() == '\n') {
        throw error("unclosed string");
      }
      pos++;
    }
    if (!more()) {
      throw error("unclosed string");
    }
    return s.substring(start, pos++);
  }

  private String basicString() {
    pos++;
    StringBuilder b = new StringBuilder();
    while (true) {
      if (!more() || peek() == '\n') {
        throw error("unclosed string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c == '\\') {
        escape(b);
      } else {
        control(c);
        b.append(c);
      }
    }
  }

  private void control(char c) {
    if (c < 0x20 && c != '\t' || c == 0x7f) {
      throw error("control character U+" + String.format("%04X", (int) c) + " in a string");
    }
  }

  private void escape(StringBuilder b) {
    if (!more()) {
      throw error("unclosed string");
    }
    char e = s.charAt(pos++);
    switch (e) {
      case 'b' -> b.append('\b');
      case 't' -> b.append('\t');
      case 'n' -> b.append('\n');
      case 'f' -> b.append('\f');
      case 'r' -> b.append('\r');
      case '"' -> b.append('"');
      case '\\' -> b.append('\\');
      case 'u', 'U' -> {
        int n = e == 'u' ? 4 : 8;
        if (pos + n > s.length() || !s.substring(pos, pos + n).matches("[0-9A-Fa-f]+")) {
          throw error("bad \\" + e + " escape");
        }
        int cp = Integer.parseUnsignedInt(s.substring(pos, pos + n), 16);
        if (cp > 0x10FFFF || cp >= 0xD800 && cp <= 0xDFFF) {
          throw error("\\" + e + " escape of a non-scalar value");
        }
        b.appendCodePoint(cp);
        pos += n;
      }
      default -> throw error("unknown escape \\" + e);
    }
  }

  private String multiLineBasic() {
    pos += 3;
    skipFirstNewline();
    StringBuilder b = new StringBuilder();
    while (true) {
      if (!more()) {
        throw error("unclosed multi-line string");
      }
      if (s.startsWith("\"\"\"", pos)) {
        int q = 3;
        while (q < 5 && s.startsWith("\"", pos + q)) {
          q++;
        }
        b.append("\"".repeat(q - 3));
        pos += q;
        return b.toString();
      }
      char c = s.charAt(pos++);
      if (c == '\\') {
        int save = pos;
        spaces();
        if (more() && (peek() == '\n' || s.startsWith("\r\n", pos))) {
          // A line-ending backslash: drop it and all whitespace up to the next text.
          while (more() && (peek() == ' ' || peek() == '\t' || peek() == '\n'
              || peek() == '\r')) {
            pos++;
          }
          continue;
        }
        pos = save;
        escape(b);
      } else if (c == '\r' && more() && peek() == '\n') {
        b.append("\r\n");
        pos++;
      } else {
        if (c != '\n') {
          control(c);
        }
        b.append(c);
      }
    }
  }

  private String multiLineLiteral() {
    pos += 3;
    skipFirstNewline();
    int start = pos;
    int end = s.indexOf("'''", pos);
    if (end < 0) {
      throw error("unclosed multi-line string");
    }
    int q = 3;
    while (q < 5 && s.startsWith("'", end + q)) {
      q++;
    }
    pos = end + q;
    return s.substring(start, end) + "'".repeat(q - 3);
  }

  private void skipFirstNewline() {
    if (s.startsWith("\r\n", pos)) {
      pos += 2;
    } else if (more() && peek() == '\n') {
      pos++;
    }
  }
}
