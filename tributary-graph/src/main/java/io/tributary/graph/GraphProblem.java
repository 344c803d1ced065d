package io.tributary.graph;

/**
 * One thing wrong with a graph, naming the op it concerns (or the variable, when no op is involved).
 *
 * @param kind what sort of problem
 * @param opName the op concerned, or {@code null} for a problem with a variable alone
 * @param message what is wrong, for a person
 */
public record GraphProblem(Kind kind, String opName, String message) {
  /** The sorts of problem validation finds. */
  public enum Kind {
    DUPLICATE_NAME,
    UNKNOWN_OP_TYPE,
    WRONG_INPUT_COUNT,
    UNKNOWN_INPUT,
    UNKNOWN_OUTPUT,
    MULTIPLE_WRITERS,
    CYCLE,
    SHAPE_MISMATCH,
    DTYPE_MISMATCH,
    MISSING_ARGUMENT,
    BAD_ARGUMENT,
    BAD_VARIABLE
  }

  @Override
  public String toString() {
    String where = opName == null ? "" : "op '" + opName + "': ";
    return where + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": " + message;
  }
}
