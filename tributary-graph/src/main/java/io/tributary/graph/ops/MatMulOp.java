package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;
import java.util.List;

/** {@code matmul(a, b; transpose_a, transpose_b)}: the product of two matrices. */
final class MatMulOp extends BaseOp {
  MatMulOp() {
    super("matmul", 2);
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType a = in.get(0);
    ValueType b = in.get(1);
    Infer.requireFloat(a, "input 0");
    Infer.requireSameDType(a, b, "inputs 0 and 1 differ in dtype");
    Infer.requireRank(a, 2, "input 0");
    Infer.requireRank(b, 2, "input 1");
    boolean ta = op.args().getBool("transpose_a", false);
    boolean tb = op.args().getBool("transpose_b", false);
    long m = a.shape().dim(ta ? 1 : 0);
    long ka = a.shape().dim(ta ? 0 : 1);
    long kb = b.shape().dim(tb ? 1 : 0);
    long n = b.shape().dim(tb ? 0 : 1);
    if (!Infer.dimsAgree(ka, kb)) {
      throw OpInferenceException.shape("inner dimensions differ: " + a.shape()
          + (ta ? "^T" : "") + " x " + b.shape() + (tb ? "^T" : ""));
    }
    return List.of(new ValueType(a.dtype(), PartialShape.of(m, n)));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    return new NdArray[] {multiply(in[0], in[1], op.args().getBool("transpose_a", false),
        op.args().getBool("transpose_b", false), NdArray.previous(previous, 0))};
  }

  static NdArray multiply(NdArray a, NdArray b, boolean ta, boolean tb) {
    return multiply(a, b, ta, tb, null);
  }

  /** {@code op(a) op(b)}, written into {@code reuse} when it fits (every element is overwritten). */
  static NdArray multiply(NdArray a, NdArray b, boolean ta, boolean tb, NdArray reuse) {
    if (a.rank() != 2 || b.rank() != 2 || a.dtype() != b.dtype()) {
      throw new IllegalArgumentException("matmul needs two matrices of one dtype, got "
          + NdArray.describe(List.of(a, b)));
    }
    int m = a.dim(ta ? 1 : 0);
    int k = a.dim(ta ? 0 : 1);
    int n = b.dim(tb ? 0 : 1);
    if (b.dim(tb ? 1 : 0) != k) {
      throw new IllegalArgumentException("inner dimensions differ: " + NdArray.describe(List.of(a, b)));
    }
    int[] shape = {m, n};
    NdArray c = NdArray.reuseOrZeros(reuse, a.dtype(), shape);
    if (a.dtype() == DType.FLOAT32) {
      Gemm.sgemm(ta, tb, m, n, k, a.floats(), b.floats(), c.floats());
    } else {
      Gemm.dgemm(ta, tb, m, n, k, a.asDoubles(), b.asDoubles(), c.doubles());
    }
    return c;
  }
}
