package io.tributary.data;

import java.io.IOException;

/**
 * A data file that does not hold what its format requires, naming the file, the line where the
 * format has lines, and the problem.
 */
public final class DatasetFormatException extends IOException {
  private final String source;
  private final long line;
  private final String problem;

  /** A problem with the file as a whole or at a byte position described in {@code problem}. */
  public DatasetFormatException(String source, String problem) {
    this(source, -1, problem);
  }

  /** A problem on 1-based line {@code line} of {@code source}; {@code line < 1} means none. */
  public DatasetFormatException(String source, long line, String problem) {
    super(line >= 1 ? source + ":" + line + ": " + problem : source + ": " + problem);
    this.source = source;
    this.line = line >= 1 ? line : -1;
    this.problem = problem;
  }

  /** The file or resource that was being read. */
  public String source() {
    return source;
  }

  /** The 1-based line number, or -1 when the problem is not tied to a line. */
  public long line() {
    return line;
  }

  /** What was wrong, without the source and line prefix. */
  public String problem() {
    return problem;
  }
}
