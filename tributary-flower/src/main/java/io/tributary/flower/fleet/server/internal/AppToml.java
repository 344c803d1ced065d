package io.tributary.flower.fleet.server.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;

/**
 * The parts of a Flower App's {@code pyproject.toml} the server needs: {@code [project]} name and
 * version, {@code [tool.flwr.app]} publisher, and the {@code [tool.flwr.app.config]} table
 * (nested tables flattened to dotted keys, as Flower's {@code flatten_dict} does).
 *
 * <p>A TOML subset: tables, dotted and quoted keys, basic and literal strings, integers (with
 * {@code _}, hex, octal, binary), floats (with {@code inf} and {@code nan}), booleans, and arrays
 * and inline tables (skipped, balanced across lines). What it cannot read is refused with the
 * line number, never guessed.
 */
public record AppToml(String name, String version, String publisher,
    SequencedMap<String, Object> config, boolean hasFederations) {
  /** The longest pyproject.toml read, 1 MiB. */
  public static final int MAX_BYTES = 1 << 20;

  /** Reads {@code text}; {@code where} names the file in errors. */
  public static AppToml parse(String text, String where) {
    Map<String, Object> project = new LinkedHashMap<>();
    Map<String, Object> app = new LinkedHashMap<>();
    SequencedMap<String, Object> config = new LinkedHashMap<>();
    boolean federations = false;
    String table = "";
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = stripComment(lines[i]).strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("[")) {
        boolean array = line.startsWith("[[");
        int close = line.lastIndexOf(array ? "]]" : "]");
        if (close < 0) {
          throw new IllegalArgumentException(where + " line " + lineNo + ": unclosed table header");
        }
        table = normalizeKey(line.substring(array ? 2 : 1, close).strip(), where, lineNo);
        if (table.equals("tool.flwr.federations") || table.startsWith("tool.flwr.federations.")) {
          federations = true;
        }
        continue;
      }
      int eq = keyEnd(line);
      if (eq < 0) {
        throw new IllegalArgumentException(where + " line " + lineNo + ": expected key = value");
      }
      String key = normalizeKey(line.substring(0, eq).strip(), where, lineNo);
      String raw = line.substring(eq + 1).strip();
      if (raw.startsWith("[") || raw.startsWith("{") || raw.startsWith("\"\"\"")
          || raw.startsWith("'''")) {
        // Skipped values: find where they end so that their lines are not read as keys.
        i = skipValue(lines, i, raw, where);
        continue;
      }
      Object value = scalar(raw, where, lineNo);
      String full = table.isEmpty() ? key : table + "." + key;
      if (full.startsWith("tool.flwr.federations.")) {
        federations = true;
      } else if (full.startsWith("tool.flwr.app.config.")) {
        config.put(full.substring("tool.flwr.app.config.".length()), value);
      } else if (full.startsWith("project.")) {
        project.put(full.substring("project.".length()), value);
      } else if (full.startsWith("tool.flwr.app.")) {
        app.put(full.substring("tool.flwr.app.".length()), value);
      }
    }
    return new AppToml(string(project.get("name"), where, "[project] name"),
        string(project.get("version"), where, "[project] version"),
        string(app.get("publisher"), where, "[tool.flwr.app] publisher"), config, federations);
  }

  private static String string(Object v, String where, String what) {
    if (v instanceof String s && !s.isEmpty()) {
      return s;
    }
    throw new IllegalArgumentException(where + " has no " + what
        + (v == null ? "" : " string (found " + v + ")"));
  }

  private static String stripComment(String line) {
    boolean basic = false;
    boolean literal = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && basic) {
        i++;
      } else if (c == '"' && !literal) {
        basic = !basic;
      } else if (c == '\'' && !basic) {
        literal = !literal;
      } else if (c == '#' && !basic && !literal) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static int keyEnd(String line) {
    boolean basic = false;
    boolean literal = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"' && !literal) {
        basic = !basic;
      } else if (c == '\'' && !basic) {
        literal = !literal;
      } else if (c == '=' && !basic && !literal) {
        return i;
      }
    }
    return -1;
  }

  /** A dotted key with its parts unquoted and joined by dots. */
  private static String normalizeKey(String key, String where, int lineNo) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < key.length()) {
      char c = key.charAt(i);
      if (c == ' ' || c == '\t') {
        i++;
        continue;
      }
      if (c == '.') {
        out.append('.');
        i++;
        continue;
      }
      if (c == '"' || c == '\'') {
        int end = key.indexOf(c, i + 1);
        if (end < 0) {
          throw new IllegalArgumentException(where + " line " + lineNo + ": unclosed quoted key");
        }
        out.append(c == '"' ? unescape(key.substring(i + 1, end), where, lineNo)
            : key.substring(i + 1, end));
        i = end + 1;
        continue;
      }
      int start = i;
      while (i < key.length() && (Character.isLetterOrDigit(key.charAt(i))
          || key.charAt(i) == '_' || key.charAt(i) == '-')) {
        i++;
      }
      if (i == start) {
        throw new IllegalArgumentException(where + " line " + lineNo + ": bad key '" + key + "'");
      }
      out.append(key, start, i);
    }
    return out.toString();
  }

  private static int skipValue(String[] lines, int i, String raw, String where) {
    if (raw.startsWith("\"\"\"") || raw.startsWith("'''")) {
      String q = raw.substring(0, 3);
      if (raw.indexOf(q, 3) >= 0) {
        return i;
      }
      for (int j = i + 1; j < lines.length; j++) {
        if (lines[j].contains(q)) {
          return j;
        }
      }
      throw new IllegalArgumentException(where + " line " + (i + 1) + ": unclosed string");
    }
    int depth = 0;
    for (int j = i; j < lines.length; j++) {
      String l = stripComment(j == i ? raw : lines[j]);
      boolean basic = false;
      boolean literal = false;
      for (int k = 0; k < l.length(); k++) {
        char c = l.charAt(k);
        if (c == '\\' && basic) {
          k++;
        } else if (c == '"' && !literal) {
          basic = !basic;
        } else if (c == '\'' && !basic) {
          literal = !literal;
        } else if (!basic && !literal && (c == '[' || c == '{')) {
          depth++;
        } else if (!basic && !literal && (c == ']' || c == '}')) {
          depth--;
        }
      }
      if (depth <= 0) {
        return j;
      }
    }
    throw new IllegalArgumentException(where + " line " + (i + 1) + ": unclosed array or table");
  }

  private static Object scalar(String raw, String where, int lineNo) {
    if (raw.startsWith("\"")) {
      int end = closingQuote(raw);
      if (end < 0 || !raw.substring(end + 1).isBlank()) {
        throw new IllegalArgumentException(where + " line " + lineNo + ": bad string");
      }
      return unescape(raw.substring(1, end), where, lineNo);
    }
    if (raw.startsWith("'")) {
      int end = raw.indexOf('\'', 1);
      if (end < 0 || !raw.substring(end + 1).isBlank()) {
        throw new IllegalArgumentException(where + " line " + lineNo + ": bad string");
      }
      return raw.substring(1, end);
    }
    if (raw.equals("true") || raw.equals("false")) {
      return Boolean.parseBoolean(raw);
    }
    String n = raw.replace("_", "");
    try {
      if (n.startsWith("0x")) {
        return Long.parseLong(n.substring(2), 16);
      }
      if (n.startsWith("0o")) {
        return Long.parseLong(n.substring(2), 8);
      }
      if (n.startsWith("0b")) {
        return Long.parseLong(n.substring(2), 2);
      }
      if (n.matches("[+-]?\\d+")) {
        return Long.parseLong(n);
      }
      switch (n) {
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
      if (n.matches("[+-]?(\\d+)(\\.\\d+)?([eE][+-]?\\d+)?")) {
        return Double.parseDouble(n);
      }
    } catch (NumberFormatException e) {
      // Falls through to the refusal below.
    }
    throw new IllegalArgumentException(where + " line " + lineNo + ": cannot read the value '"
        + raw + "' (dates and times are not supported)");
  }

  private static int closingQuote(String raw) {
    for (int i = 1; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        return i;
      }
    }
    return -1;
  }

  private static String unescape(String s, String where, int lineNo) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (++i >= s.length()) {
        throw new IllegalArgumentException(where + " line " + lineNo + ": bad escape");
      }
      char e = s.charAt(i);
      switch (e) {
        case 'b' -> b.append('\b');
        case 't' -> b.append('\t');
        case 'n' -> b.append('\n');
        case 'f' -> b.append('\f');
        case 'r' -> b.append('\r');
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case 'u', 'U' -> {
          int len = e == 'u' ? 4 : 8;
          if (i + len > s.length() - 1) {
            throw new IllegalArgumentException(where + " line " + lineNo + ": bad escape");
          }
          try {
            b.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 1 + len), 16));
          } catch (NumberFormatException | StringIndexOutOfBoundsException x) {
            throw new IllegalArgumentException(where + " line " + lineNo + ": bad escape");
          }
          i += len;
        }
        default -> throw new IllegalArgumentException(where + " line " + lineNo
            + ": bad escape \\" + e);
      }
    }
    return b.toString();
  }
}
