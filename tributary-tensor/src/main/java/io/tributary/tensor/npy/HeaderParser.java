package io.tributary.tensor.npy;

import io.tributary.tensor.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * A strict parser for the Python dict literal in an NPY header.
 *
 * <p>It accepts what numpy writes, in any key order: {@code {'descr': '<f4', 'fortran_order':
 * False, 'shape': (3, 4), }} followed by spaces and a newline. Exactly the keys {@code descr},
 * {@code fortran_order} and {@code shape} must appear, once each. Integers may carry the
 * {@code L} suffix that Python 2 numpy wrote. A non-string descr (a structured dtype's list) is
 * captured as text so that the caller can name it when refusing it. Anything else is an error
 * naming the offending position, which is why this is not a general literal evaluator.
 */
final class HeaderParser {
  private final String text;
  private int pos;

  private HeaderParser(String text) {
    this.text = text;
  }

  /** Parses a header dict, including its trailing padding. */
  static HeaderDict parse(String text) throws NpyException {
    return new HeaderParser(text).dict();
  }

  private HeaderDict dict() throws NpyException {
    skipSpace();
    expect('{');
    String descr = null;
    boolean descrIsString = false;
    Boolean fortran = null;
    Shape shape = null;
    skipSpace();
    while (peek() != '}') {
      int keyAt = pos;
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      switch (key) {
        case "descr" -> {
          if (descr != null) {
            throw error("duplicate key 'descr'", keyAt);
          }
          descrIsString = peek() == '\'' || peek() == '"';
          descr = descrIsString ? string() : bracketed();
        }
        case "fortran_order" -> {
          if (fortran != null) {
            throw error("duplicate key 'fortran_order'", keyAt);
          }
          fortran = bool();
        }
        case "shape" -> {
          if (shape != null) {
            throw error("duplicate key 'shape'", keyAt);
          }
          shape = shape();
        }
        default -> throw error("unknown key '" + key + "' (expected descr, fortran_order, shape)", keyAt);
      }
      skipSpace();
      if (peek() == ',') {
        pos++;
        skipSpace();
      } else if (peek() != '}') {
        throw error("expected ',' or '}'", pos);
      }
    }
    pos++;
    skipSpace();
    if (pos < text.length()) {
      throw error("unexpected text after the header dict", pos);
    }
    if (descr == null || fortran == null || shape == null) {
      List<String> missing = new ArrayList<>();
      if (descr == null) {
        missing.add("descr");
      }
      if (fortran == null) {
        missing.add("fortran_order");
      }
      if (shape == null) {
        missing.add("shape");
      }
      throw new NpyException("header dict lacks key(s) " + missing + ": " + quoted());
    }
    return new HeaderDict(descr, descrIsString, fortran, shape);
  }

  private String string() throws NpyException {
    char quote = peek();
    if (quote != '\'' && quote != '"') {
      throw error("expected a quoted string", pos);
    }
    int start = ++pos;
    while (pos < text.length() && text.charAt(pos) != quote) {
      char c = text.charAt(pos);
      if (c == '\\' || c == '\n') {
        throw error("escapes and line breaks are not allowed in header strings", pos);
      }
      pos++;
    }
    if (pos >= text.length()) {
      throw error("unterminated string", start - 1);
    }
    return text.substring(start, pos++);
  }

  private boolean bool() throws NpyException {
    if (text.startsWith("True", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("False", pos)) {
      pos += 5;
      return false;
    }
    throw error("fortran_order must be True or False", pos);
  }

  private Shape shape() throws NpyException {
    int start = pos;
    if (peek() != '(') {
      throw error("shape must be a tuple such as (3, 4), (5,) or ()", pos);
    }
    pos++;
    List<Long> dims = new ArrayList<>();
    skipSpace();
    boolean trailingComma = false;
    while (peek() != ')') {
      if (dims.size() == NumpyShapes.MAX_RANK) {
        throw error("shape has more than numpy's " + NumpyShapes.MAX_RANK + " dimensions", pos);
      }
      dims.add(dimension(dims.size()));
      skipSpace();
      trailingComma = false;
      if (peek() == ',') {
        pos++;
        trailingComma = true;
        skipSpace();
      } else if (peek() != ')') {
        throw error("expected ',' or ')' in shape", pos);
      }
    }
    pos++;
    if (dims.size() == 1 && !trailingComma) {
      throw error("shape (n) is an int, not a tuple; numpy writes (n,)", start);
    }
    long[] d = new long[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
    }
    // The element count is checked here, before Shape counts it; the item size once the descr is known.
    String problem = NumpyShapes.problem(d, 1);
    if (problem != null) {
      throw new NpyException(problem);
    }
    return Shape.of(d);
  }

  private long dimension(int axis) throws NpyException {
    int start = pos;
    boolean negative = false;
    if (peek() == '-' || peek() == '+') {
      negative = peek() == '-';
      pos++;
    }
    int digits = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    if (pos == digits) {
      throw error("expected an integer dimension", start);
    }
    if (pos - digits > 1 && text.charAt(digits) == '0') {
      throw error("integer with a leading zero", start);
    }
    String number = text.substring(digits, pos);
    if (peek() == 'L') {
      pos++;
    }
    if (negative && !number.chars().allMatch(c -> c == '0')) {
      throw new NpyException("negative dimension -" + number + " at axis " + axis + " of the shape");
    }
    try {
      return Long.parseLong(number);
    } catch (NumberFormatException e) {
      throw new NpyException("dimension " + number + " at axis " + axis + " does not fit in a long", e);
    }
  }

  /** Captures a bracketed literal (list, tuple or dict) as text, honouring quoted strings. */
  private String bracketed() throws NpyException {
    int start = pos;
    char first = peek();
    if (first != '[' && first != '(' && first != '{') {
      throw error("descr must be a string or a list", pos);
    }
    StringBuilder closers = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos);
      switch (c) {
        case '[' -> closers.append(']');
        case '(' -> closers.append(')');
        case '{' -> closers.append('}');
        case ']', ')', '}' -> {
          if (closers.isEmpty() || closers.charAt(closers.length() - 1) != c) {
            throw error("unbalanced '" + c + "' in descr", pos);
          }
          closers.setLength(closers.length() - 1);
        }
        case '\'', '"' -> {
          string();
          continue;
        }
        default -> { }
      }
      pos++;
      if (closers.isEmpty()) {
        return text.substring(start, pos);
      }
    }
    throw error("unterminated descr literal", start);
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
        return;
      }
      pos++;
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c) throws NpyException {
    if (peek() != c) {
      throw error("expected '" + c + "'", pos);
    }
    pos++;
  }

  private NpyException error(String what, int at) {
    String found = at < text.length() ? "'" + text.charAt(at) + "'" : "the end";
    return new NpyException(
        "header is not a valid NPY dict: " + what + " at offset " + at + " (found " + found + "): " + quoted());
  }

  private String quoted() {
    String t = text.strip();
    return "\"" + (t.length() > 200 ? t.substring(0, 200) + "..." : t) + "\"";
  }
}
