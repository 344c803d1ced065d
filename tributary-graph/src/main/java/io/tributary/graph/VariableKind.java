package io.tributary.graph;

/** What a graph variable is: fed from outside, fixed, learned, or computed by an op. */
public enum VariableKind {
  /** Fed at run time (inputs, labels). */
  PLACEHOLDER,
  /** A fixed value stored with the graph. */
  CONSTANT,
  /** A parameter the optimizer updates; its value lives outside the graph. */
  TRAINABLE,
  /** An intermediate array written by exactly one op. */
  ARRAY
}
