package io.tributary.graph.ops;

import io.tributary.graph.Op;

/**
 * {@code relu(add(conv2d(x, w), b))} as one op ({@link Fusions#CONV_BIAS_RELU}, inputs x, w, b,
 * the convolution's arguments): with float32 values and one bias per output channel, the bias and
 * ReLU are applied to each block of outputs as soon as the convolution finishes it, while it is in
 * cache and on the thread that computed it ({@link ConvFloat#forward}), instead of in a pass of
 * their own; other inputs run the two kernels one after the other. The same bits either way.
 */
final class ConvBiasReluOp extends FusedOp {
  static final ConvBiasReluOp INSTANCE = new ConvBiasReluOp();
  private static final Conv2dOp CONV = new Conv2dOp("conv2d", Conv2dOp.Kind.FORWARD);

  private ConvBiasReluOp() {
    super(Fusions.CONV_BIAS_RELU, 3);
  }

  /** The convolution's: the bordered input and the (unused) rearranged filter. */
  @Override
  int workspaces() {
    return CONV.workspaces();
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    NdArray[] fused = CONV.computeBiasRelu(op, in[0], in[1], in[2], previous, gemm);
    if (fused != null) {
      return fused;
    }
    NdArray y = CONV.compute(op, new NdArray[] {in[0], in[1]}, null, gemm)[0];
    return Fusions.def(Fusions.BIAS_RELU).orElseThrow().compute(op, new NdArray[] {y, in[2]},
        new NdArray[] {NdArray.previous(previous, 0)});
  }
}
