package io.tributary.graph.ops;

import io.tributary.graph.GraphProblem;

/** Thrown by {@link OpDef#infer} when an op's inputs or arguments do not fit it. */
public final class OpInferenceException extends Exception {
  private static final long serialVersionUID = 1L;
  private final GraphProblem.Kind kind;

  public OpInferenceException(GraphProblem.Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public GraphProblem.Kind kind() {
    return kind;
  }

  static OpInferenceException shape(String message) {
    return new OpInferenceException(GraphProblem.Kind.SHAPE_MISMATCH, message);
  }

  static OpInferenceException dtype(String message) {
    return new OpInferenceException(GraphProblem.Kind.DTYPE_MISMATCH, message);
  }

  static OpInferenceException arg(String message) {
    return new OpInferenceException(GraphProblem.Kind.BAD_ARGUMENT, message);
  }
}
