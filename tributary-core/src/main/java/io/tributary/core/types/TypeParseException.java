package io.tributary.core.types;

/**
 * Thrown when text is not a type in compact notation.
 *
 * <p>The message names the problem and shows the text with a caret under the column where
 * parsing failed, for example:
 *
 * <pre>
 * expected a type after ',' at column 10
 *   &lt;a=int32,&gt;
 *            ^
 * </pre>
 */
public final class TypeParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String text;
  private final int column;
  private final String reason;

  TypeParseException(String text, int column, String reason) {
    super(
        reason + " at column " + (column + 1) + "\n  " + text.replaceAll("\\s", " ") + "\n  "
            + " ".repeat(column) + "^");
    this.text = text;
    this.column = column;
    this.reason = reason;
  }

  /** The text that was parsed. */
  public String text() {
    return text;
  }

  /** The zero-based column where parsing failed. */
  public int column() {
    return column;
  }

  /** The problem, without the caret display. */
  public String reason() {
    return reason;
  }
}
