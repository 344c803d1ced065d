package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.List;

/**
 * {@code sum_to_like(g, x)}: sums {@code g} over the axes along which {@code x} was broadcast, giving
 * {@code x}'s shape. The gradient of broadcasting.
 */
final class SumToLikeOp extends BaseOp {
  /** Each thread's columns start at a multiple of this many (a 64-byte line of floats). */
  private static final int COLUMN_ALIGN = 16;

  SumToLikeOp() {
    super("sum_to_like", 2);
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    Infer.requireFloat(in.get(0), "input 0");
    Infer.requireSameDType(in.get(0), in.get(1), "inputs 0 and 1 differ in dtype");
    Infer.broadcast(in.get(1).shape(), in.get(0).shape());
    return List.of(in.get(1));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  /**
   * Where nothing was broadcast (g has x's shape, as for the gradient of {@code add(y, b)} with
   * respect to y), g itself, not a copy: kernels never modify their inputs, and a compiled run
   * keeps no view of an input for reuse.
   */
  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    return compute(op, in, previous, GemmKernel.DEFAULT);
  }

  /** As {@link #compute(Op, NdArray[], NdArray[])}; a large float32 sum on gemm's threads. */
  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    // Nothing to sum: the gradient itself is the result (a kernel never writes into its inputs,
    // so sharing the array is safe, as a reshape's view is). The executor keeps no array it did
    // not allocate for reuse.
    if (in[0].dtype() == in[1].dtype()
        && java.util.Arrays.equals(in[0].shapeRef(), in[1].shapeRef())) {
      return new NdArray[] {in[0]};
    }
    return new NdArray[] {sumTo(in[0], in[1].shapeRef(), NdArray.previous(previous, 0), gemm)};
  }

  static NdArray sumTo(NdArray g, int[] target) {
    return sumTo(g, target, null, GemmKernel.DEFAULT);
  }

  /**
   * As {@link #sumTo(NdArray, int[])}, the float32 cases written into {@code reuse} when it fits,
   * a large float32 sum over rows on gemm's threads.
   */
  static NdArray sumTo(NdArray g, int[] target, NdArray reuse, GemmKernel gemm) {
    int[] gs = g.shapeRef();
    // Checked without building the broadcast shape (a bias gradient's sum, every step); the
    // broadcast itself only to name a mismatch as before.
    if (!broadcastsTo(target, gs) && !java.util.Arrays.equals(Broadcast.shape(target, gs), gs)) {
      throw new IllegalArgumentException("shape " + java.util.Arrays.toString(target)
          + " does not broadcast to " + java.util.Arrays.toString(gs));
    }
    boolean f32 = g.dtype() == io.tributary.tensor.DType.FLOAT32;
    if (java.util.Arrays.equals(target, gs)) {
      if (!f32) {
        return g.copy();
      }
      NdArray r = NdArray.reuseOrZeros(reuse, g.dtype(), gs);
      System.arraycopy(g.floats(), 0, r.floats(), 0, g.size());
      return r;
    }
    int n = NdArray.sizeOf(target);
    if (f32 && Broadcast.isSuffix(target, gs)) {
      NdArray result = NdArray.reuseOrZeros(reuse, g.dtype(), target);
      sumRows(gemm, g.floats(), result.floats());
      return result;
    }
    double[] x = g.asDoubles();
    int[] map = Broadcast.indexMap(gs, Broadcast.strides(target, gs));
    double[] r = new double[n];
    for (int i = 0; i < x.length; i++) {
      r[map[i]] += x[i];
    }
    return NdArray.fromDoubles(g.dtype(), target, r);
  }

  /**
   * {@code r[j] = sum over rows of x[row * r.length + j]}, each column's sum one chain over the
   * rows in ascending order from +0; large sums split over gemm's threads by columns, so the split
   * changes no bits.
   */
  static void sumRows(GemmKernel gemm, float[] x, float[] r) {
    java.util.Arrays.fill(r, 0f);
    int threads = x.length >= ActivationGradOp.PARALLEL_MIN_ELEMENTS ? gemm.threads() : 1;
    RowSplit.run(threads, r.length, COLUMN_ALIGN, COLUMN_ALIGN,
        (j0, j1) -> sumRows(x, r, j0, j1));
  }

  /** Columns {@code [j0, j1)} of {@link #sumRows(GemmKernel, float[], float[])}. */
  private static void sumRows(float[] x, float[] r, int j0, int j1) {
    int n = r.length;
    for (int base = 0; n > 0 && base < x.length; base += n) {
      for (int j = j0; j < j1; j++) {
        r[j] += x[base + j];
      }
    }
  }

  /** Whether {@code target} broadcasts to exactly {@code full}. */
  private static boolean broadcastsTo(int[] target, int[] full) {
    int lead = full.length - target.length;
    if (lead < 0) {
      return false;
    }
    for (int i = 0; i < target.length; i++) {
      if (target[i] != 1 && target[i] != full[lead + i]) {
        return false;
      }
    }
    return true;
  }
}
