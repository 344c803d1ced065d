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
    return compute(op, in, previous, GemmKernel.DEFAULT);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    return new NdArray[] {multiply(gemm, in[0], in[1], op.args().getBool("transpose_a", false),
        op.args().getBool("transpose_b", false), NdArray.previous(previous, 0))};
  }

  /**
   * {@code target += scale * op(a) op(b)} for the matmul {@code op} on inputs {@code in}, in one
   * product call on {@code gemm} that never stores the product.
   *
   * @throws IllegalArgumentException when the operands or the target do not fit
   */
  static void accumulate(GemmKernel gemm, Op op, NdArray[] in, double scale, NdArray target) {
    NdArray a = in[0];
    NdArray b = in[1];
    boolean ta = op.args().getBool("transpose_a", false);
    boolean tb = op.args().getBool("transpose_b", false);
    int[] mnk = dims(a, b, ta, tb);
    int m = mnk[0];
    int n = mnk[1];
    int k = mnk[2];
    if (target.dtype() != a.dtype() || target.rank() != 2 || target.dim(0) != m
        || target.dim(1) != n) {
      throw new IllegalArgumentException("the product is " + a.dtype() + "[" + m + ", " + n
          + "] but the target is " + target);
    }
    if (a.dtype() == DType.FLOAT32) {
      Gemm.sgemm(gemm, ta, tb, m, n, k, (float) scale, a.floats(), b.floats(), 1f,
          target.floats());
    } else {
      Gemm.dgemm(gemm, ta, tb, m, n, k, scale, a.asDoubles(), b.asDoubles(), 1.0,
          target.doubles());
    }
  }

  /**
   * What {@link #accumulate} would add, as a {@link RankOneUpdate} left unapplied, when it is a
   * float32 product over one step of k onto a float32 matrix of its shape; null otherwise (then
   * {@link #accumulate} applies it, or names what does not fit).
   */
  static RankOneUpdate rankOne(Op op, NdArray[] in, double scale, NdArray target) {
    NdArray a = in[0];
    NdArray b = in[1];
    if (a.dtype() != DType.FLOAT32 || b.dtype() != DType.FLOAT32 || a.rank() != 2
        || b.rank() != 2 || target.dtype() != DType.FLOAT32 || target.rank() != 2) {
      return null;
    }
    boolean ta = op.args().getBool("transpose_a", false);
    boolean tb = op.args().getBool("transpose_b", false);
    int m = a.dim(ta ? 1 : 0);
    int n = b.dim(tb ? 0 : 1);
    if (a.dim(ta ? 0 : 1) != 1 || b.dim(tb ? 1 : 0) != 1 || target.dim(0) != m
        || target.dim(1) != n) {
      return null;
    }
    // With one step of k, op(A)'s column and op(B)'s row are the arrays as they lie, transposed
    // or not.
    return new RankOneUpdate(target, java.util.Arrays.copyOf(a.floats(), m),
        java.util.Arrays.copyOf(b.floats(), n), (float) scale);
  }

  /** m, n and k of {@code op(a) op(b)}, checked. */
  private static int[] dims(NdArray a, NdArray b, boolean ta, boolean tb) {
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
    return new int[] {m, n, k};
  }

  static NdArray multiply(NdArray a, NdArray b, boolean ta, boolean tb) {
    return multiply(GemmKernel.DEFAULT, a, b, ta, tb, null);
  }

  /**
   * {@code op(a) op(b)} on {@code gemm}, written into {@code reuse} when it fits (every element is
   * overwritten). A float32 {@code b} {@link NdArray#assumedFinite marked finite} lets the Java
   * kernels skip the zero elements of sparse rows of {@code a}, with the same bits.
   */
  static NdArray multiply(GemmKernel gemm, NdArray a, NdArray b, boolean ta, boolean tb,
      NdArray reuse) {
    int[] mnk = dims(a, b, ta, tb);
    int m = mnk[0];
    int n = mnk[1];
    int k = mnk[2];
    int[] shape = {m, n};
    NdArray c = NdArray.reuseOrZeros(reuse, a.dtype(), shape);
    if (a.dtype() == DType.FLOAT32) {
      // Rows of a that are mostly zero, times a b known finite: the Java kernels' bits from the
      // non-zero steps alone (SparseRows), else the dense product.
      boolean sparse = b.assumedFinite() && !ta && !tb
          && gemm.implementation() != Gemm.Kernel.OPENBLAS && gemm.isAvailable()
          && SparseRows.multiply(m, n, k, a.floats(), b.floats(), c.floats());
      if (!sparse) {
        Gemm.sgemm(gemm, ta, tb, m, n, k, a.floats(), b.floats(), c.floats());
      }
    } else {
      Gemm.dgemm(gemm, ta, tb, m, n, k, a.asDoubles(), b.asDoubles(), c.doubles());
    }
    return c;
  }
}
