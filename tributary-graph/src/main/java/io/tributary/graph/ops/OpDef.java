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

  /**
   * Computes the outputs, writing them where it can into {@code previous}: the arrays this op
   * returned on an earlier run of the same plan, which nothing reads any more. A kernel may
   * overwrite and return {@code previous[i]} as output i when it has exactly the dtype and shape
   * that output needs; otherwise it allocates, as {@link #compute(Op, NdArray[])} does. The
   * results equal those of {@link #compute(Op, NdArray[])} either way.
   *
   * @param previous reusable output arrays by output index; null, or with null entries, when
   *     there are none
   * @throws IllegalArgumentException as {@link #compute(Op, NdArray[])}
   */
  default NdArray[] compute(Op op, NdArray[] inputs, NdArray[] previous) {
    return compute(op, inputs);
  }

  /**
   * As {@link #compute(Op, NdArray[], NdArray[])}, with the matrix products the op runs on {@code
   * gemm}: the kernel of the run executing it ({@link GraphExecutor}). Ops without matrix
   * products need not override this; by default it ignores {@code gemm} and calls {@link
   * #compute(Op, NdArray[])} when {@code previous} is null, else {@link #compute(Op, NdArray[],
   * NdArray[])}.
   *
   * @throws IllegalArgumentException as {@link #compute(Op, NdArray[])}
   */
  default NdArray[] compute(Op op, NdArray[] inputs, NdArray[] previous, GemmKernel gemm) {
    return previous == null ? compute(op, inputs) : compute(op, inputs, previous);
  }
}
