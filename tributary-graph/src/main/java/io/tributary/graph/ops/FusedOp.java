package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.List;

/**
 * An op that only a plan creates, by fusing ops whose types it already inferred ({@link Fusions},
 * {@link LossFusion}): it is never inferred, and every way of computing it runs its one kernel,
 * {@link #compute(Op, NdArray[], NdArray[], GemmKernel)}, on the default matrix kernel unless the
 * run gives its own.
 */
abstract class FusedOp extends BaseOp {
  FusedOp(String type, int minInputs, int maxInputs, int outputCount) {
    super(type, minInputs, maxInputs, outputCount);
  }

  FusedOp(String type, int inputs) {
    super(type, inputs);
  }

  /**
   * Always throws: a graph never holds a fused op, so nothing has types to infer for one.
   *
   * @throws UnsupportedOperationException always, naming the op
   */
  @Override
  public final List<ValueType> infer(Op op, List<ValueType> in) {
    throw new UnsupportedOperationException(
        "'" + type() + "' is a fused op, which a plan creates and never infers");
  }

  @Override
  public final NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null, GemmKernel.DEFAULT);
  }

  @Override
  public final NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    return compute(op, in, previous, GemmKernel.DEFAULT);
  }

  /**
   * The op's kernel; {@code previous} may be null, and an op without matrix products ignores
   * {@code gemm}.
   */
  @Override
  public abstract NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm);
}
