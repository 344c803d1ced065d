package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.List;

/**
 * What an op type means: how many inputs and outputs it has, which arguments it needs, the types
 * of its outputs, and how to compute them.
 */
public interface OpDef {
  /** The op type, as stored in {@link Op#type()}. */
  String type();

  /** The fewest inputs the op takes. */
  int minInputs();

  /** The most inputs the op takes ({@link Integer#MAX_VALUE} when variadic). */
  int maxInputs();

  /** How many outputs the op writes. */
  int outputCount();

  /** The argument names the op cannot run without. */
  List<String> requiredArgs();

  /**
   * The output types, given the input types; the input count and required arguments are checked
   * before this is called.
   *
   * @throws OpInferenceException when a dtype, shape or argument value does not fit
   */
  List<ValueType> infer(Op op, List<ValueType> inputs) throws OpInferenceException;

  /**
   * Computes the outputs. Inputs are never modified.
   *
   * @throws IllegalArgumentException when run-time shapes or values do not fit (the executor names
   *     the op)
   */
  NdArray[] compute(Op op, NdArray[] inputs);
}
