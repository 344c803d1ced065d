package io.tributary.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of CSV text, split into fields, with the numbers in them parsed and checked: the one
 * reading of CSV that {@link CsvLoader} (one dataset) and {@link CsvClients} (clients by a
 * column) share. Input is UTF-8, gzip recognised by its magic bytes; blank lines are skipped.
 *
 * <p>Fields are separated by a single delimiter character and trimmed; a field may be enclosed in
 * double quotes (with {@code ""} for a quote inside). Numbers are ASCII decimals ({@code 1},
 * {@code -0.5}, {@code 2.5e-3}): {@code NaN}, {@code Infinity} and hexadecimal are refused.
 */
final class CsvText {
  private final LineReader lines;
  private final String source;
  private final char delimiter;

  private CsvText(LineReader lines, String source, char delimiter) {
    this.lines = lines;
    this.source = source;
    this.delimiter = delimiter;
  }

  /** The rows of {@code raw}, named {@code source} in errors; does not close {@code raw}. */
  static CsvText open(InputStream raw, GzipLimits limits, String source, char delimiter,
      int maxLineLength) throws IOException {
    InputStreamReader reader = new InputStreamReader(Gzip.maybeDecompress(raw, limits, source),
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT));
    return new CsvText(new LineReader(reader, source, maxLineLength), source, delimiter);
  }

  /**
   * The fields of the next non-blank line, or null at the end.
   *
   * @throws DatasetFormatException naming the line when it is not valid UTF-8, too long, or its
   *     quotes do not close
   */
  List<String> next() throws IOException {
    try {
      String line;
      while ((line = lines.next()) != null) {
        if (!line.isBlank()) {
          return split(line, delimiter, source, lines.lineNumber());
        }
      }
      return null;
    } catch (CharacterCodingException e) {
      throw new DatasetFormatException(source, lines.lineNumber() + 1, "not valid UTF-8");
    }
  }

  /** The 1-based number of the line {@link #next} last returned. */
  long line() {
    return lines.lineNumber();
  }

  /**
   * A feature: a decimal number that fits float32, times {@code scale}.
   *
   * @param column how errors name the column, such as {@code column 'x1'}
   * @throws DatasetFormatException naming the line and column otherwise
   */
  float feature(String text, String column, double scale) throws DatasetFormatException {
    if (!isDecimal(text)) {
      throw new DatasetFormatException(source, line(), column + ": '" + ClientRows.clip(text)
          + "' is not a finite number");
    }
    return ClientRows.feature(Double.parseDouble(text) * scale, column, text, source, line());
  }

  /**
   * A label: a whole number in {@code [0, limit)}; {@code numClasses} is 0 when the classes are
   * inferred, {@code limit} then their bound.
   *
   * @param column how errors name the column, such as {@code label column 'y'}
   * @throws DatasetFormatException naming the line and column otherwise
   */
  int label(String text, String column, int numClasses, int limit)
      throws DatasetFormatException {
    if (!isDecimal(text)) {
      throw new DatasetFormatException(source, line(), column + ": '" + ClientRows.clip(text)
          + "' is not a number");
    }
    return ClientRows.label(Double.parseDouble(text), column, text, numClasses, limit, source,
        line());
  }

  /** Splits one line at {@code delimiter}, honouring double-quoted fields. */
  static List<String> split(String line, char delimiter, String source, long lineNo)
      throws DatasetFormatException {
    List<String> out = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quoted) {
        if (ch == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            field.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          field.append(ch);
        }
      } else if (ch == delimiter) {
        out.add(wasQuoted ? field.toString() : field.toString().strip());
        field.setLength(0);
        wasQuoted = false;
      } else if (ch == '"' && field.toString().isBlank() && !wasQuoted) {
        field.setLength(0);
        quoted = true;
        wasQuoted = true;
      } else if (wasQuoted && !Character.isWhitespace(ch)) {
        throw new DatasetFormatException(
            source, lineNo, "field " + out.size() + ": text after a closing quote");
      } else if (!wasQuoted) {
        field.append(ch);
      }
    }
    if (quoted) {
      throw new DatasetFormatException(source, lineNo, "field " + out.size() + ": unclosed quote");
    }
    out.add(wasQuoted ? field.toString() : field.toString().strip());
    return out;
  }

  /** True for ASCII decimal numbers: optional sign, digits with an optional point, exponent. */
  static boolean isDecimal(String s) {
    int n = s.length();
    int i = 0;
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    int digits = 0;
    while (i < n && isDigit(s.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int exponent = 0;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        exponent++;
      }
      if (exponent == 0) {
        return false;
      }
    }
    return i == n;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
