package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.tensor.DType;
import java.util.Arrays;
import java.util.List;

/**
 * Gradients of element-wise activations, {@code (g, z) -> g * f'(z)}: {@code relu_grad} takes the
 * relu input, {@code sigmoid_grad} and {@code tanh_grad} take the activation's output.
 */
final class ActivationGradOp extends BaseOp {
  enum Kind {
    RELU, SIGMOID, TANH
  }

  /** Arrays smaller than this stay on one thread: a fork would cost more than it saves. */
  static final int PARALLEL_MIN_ELEMENTS = 1 << 16;
  /** Each thread's elements start at a multiple of this many (a 64-byte line of floats). */
  private static final int ALIGN = 16;

  private final Kind kind;

  ActivationGradOp(String type, Kind kind) {
    super(type, 2);
    this.kind = kind;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    Infer.requireFloat(in.get(0), "input 0");
    Infer.requireSameDType(in.get(0), in.get(1), "inputs 0 and 1 differ in dtype");
    if (!in.get(0).shape().compatibleWith(in.get(1).shape())) {
      throw OpInferenceException.shape("gradient " + in.get(0).shape() + " and value "
          + in.get(1).shape() + " differ in shape");
    }
    return List.of(in.get(0));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    return compute(op, in, previous, GemmKernel.DEFAULT);
  }

  /** As {@link #compute(Op, NdArray[], NdArray[])}; a large float32 relu_grad on gemm's threads. */
  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    NdArray g = in[0];
    NdArray z = in[1];
    if (!Arrays.equals(g.shapeRef(), z.shapeRef())) {
      throw new IllegalArgumentException("shapes differ: " + NdArray.describe(List.of(g, z)));
    }
    if (kind == Kind.RELU && g.dtype() == DType.FLOAT32) {
      NdArray result = NdArray.reuseOrZeros(NdArray.previous(previous, 0), g.dtype(),
          g.shapeRef());
      reluGrad(gemm, g.floats(), z.floats(), result.floats());
      return new NdArray[] {result};
    }
    double[] a = g.asDoubles();
    double[] x = z.asDoubles();
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = switch (kind) {
        case RELU -> x[i] > 0 ? a[i] : 0.0;
        case SIGMOID -> a[i] * x[i] * (1.0 - x[i]);
        case TANH -> a[i] * (1.0 - x[i] * x[i]);
      };
    }
    return new NdArray[] {NdArray.fromDoubles(g.dtype(), g.shapeRef(), r)};
  }

  /**
   * {@code r = relu_grad(a, x)} for float32, over gemm's threads when the arrays are large: each
   * element on its own, so the split changes no bits.
   */
  static void reluGrad(GemmKernel gemm, float[] a, float[] x, float[] r) {
    int threads = a.length >= PARALLEL_MIN_ELEMENTS ? gemm.threads() : 1;
    RowSplit.run(threads, a.length, PARALLEL_MIN_ELEMENTS / 2, ALIGN,
        (from, to) -> reluGrad(a, x, r, from, to));
  }

  /** Elements {@code [from, to)} of {@code r = relu_grad(a, x)}. */
  private static void reluGrad(float[] a, float[] x, float[] r, int from, int to) {
    // g * (z > 0) as a multiply by a 0/1 mask built with max and signum: C2 vectorizes this,
    // while the obvious select branches on every element and mispredicts on half of them. As in
    // numpy's g * (z > 0), an infinite g where z <= 0 gives NaN; so does a NaN z.
    for (int i = from; i < to; i++) {
      r[i] = a[i] * Math.signum(Math.max(x[i], 0f));
    }
  }
}
