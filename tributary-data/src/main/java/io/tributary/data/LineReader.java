package io.tributary.data;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads text lines with a length limit, so one endless line cannot exhaust memory. Lines end at
 * {@code \n}; a {@code \r} before it is dropped.
 */
final class LineReader {
  private final Reader in;
  private final String source;
  private final int maxLineLength;
  private final char[] buf = new char[8192];
  private int pos;
  private int end;
  private long lineNumber;

  LineReader(Reader in, String source, int maxLineLength) {
    this.in = in;
    this.source = source;
    this.maxLineLength = maxLineLength;
  }

  /** The 1-based number of the line last returned. */
  long lineNumber() {
    return lineNumber;
  }

  /** The next line without its terminator, or null at the end of input. */
  String next() throws IOException {
    StringBuilder sb = null;
    while (true) {
      if (pos == end) {
        end = in.read(buf, 0, buf.length);
        pos = 0;
        if (end <= 0) {
          end = 0;
          if (sb == null) {
            return null;
          }
          return finish(sb);
        }
      }
      if (sb == null) {
        sb = new StringBuilder();
      }
      int start = pos;
      while (pos < end && buf[pos] != '\n') {
        pos++;
      }
      if (sb.length() + (pos - start) > maxLineLength + 1) {
        throw new DatasetFormatException(
            source, lineNumber + 1, "line longer than " + maxLineLength + " characters");
      }
      sb.append(buf, start, pos - start);
      if (pos < end) {
        pos++; // the '\n'
        return finish(sb);
      }
    }
  }

  private String finish(StringBuilder sb) throws DatasetFormatException {
    lineNumber++;
    int len = sb.length();
    if (len > 0 && sb.charAt(len - 1) == '\r') {
      sb.setLength(len - 1);
    }
    if (sb.length() > maxLineLength) {
      throw new DatasetFormatException(
          source, lineNumber, "line longer than " + maxLineLength + " characters");
    }
    return sb.toString();
  }
}
