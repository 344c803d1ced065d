package io.tributary.cli;

import java.util.List;

/** Renders {@code inspect}'s summaries as an aligned text table or as a JSON array. */
final class InspectOutput {
  private static final String[] HEADERS = {"name", "dtype", "shape", "min", "max", "mean"};

  private InspectOutput() {}

  /** A table with a header row and one row per tensor; columns are separated by two spaces. */
  static String table(List<TensorSummary> summaries) {
    String[][] rows = new String[summaries.size() + 1][];
    rows[0] = HEADERS;
    for (int i = 0; i < summaries.size(); i++) {
      TensorSummary t = summaries.get(i);
      rows[i + 1] = new String[] {
        t.printableName(),
        t.dtype(),
        t.shapeText(),
        TensorSummary.text(t.stats().min()),
        TensorSummary.text(t.stats().max()),
        TensorSummary.text(t.stats().mean())
      };
    }
    int[] widths = new int[HEADERS.length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].codePointCount(0, row[c].length()));
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        line.append(row[c]);
        if (c < row.length - 1) {
          line.append(" ".repeat(widths[c] - row[c].codePointCount(0, row[c].length()) + 2));
        }
      }
      out.append(line).append(System.lineSeparator());
    }
    return out.toString();
  }

  /** A JSON array holding one object per tensor, one object per line. */
  static String json(List<TensorSummary> summaries) {
    if (summaries.isEmpty()) {
      return "[]" + System.lineSeparator();
    }
    StringBuilder out = new StringBuilder("[").append(System.lineSeparator());
    for (int i = 0; i < summaries.size(); i++) {
      out.append("  ").append(summaries.get(i).toJson())
          .append(i < summaries.size() - 1 ? "," : "")
          .append(System.lineSeparator());
    }
    return out.append("]").append(System.lineSeparator()).toString();
  }
}
