package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.List;

/**
 * {@code sum_to_like(g, x)}: sums {@code g} over the axes along which {@code x} was broadcast, giving
 * {@code x}'s shape. The gradient of broadcasting.
 */
final class SumToLikeOp extends BaseOp {
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
    return new NdArray[] {sumTo(in[0], in[1].shapeRef())};
  }

  static NdArray sumTo(NdArray g, int[] target) {
    int[] gs = g.shapeRef();
    int[] bs = Broadcast.shape(target, gs);
    if (!java.util.Arrays.equals(bs, gs)) {
      throw new IllegalArgumentException("shape " + java.util.Arrays.toString(target)
          + " does not broadcast to " + java.util.Arrays.toString(gs));
    }
    if (java.util.Arrays.equals(target, gs)) {
      return g.copy();
    }
    int n = NdArray.sizeOf(target);
    if (g.dtype() == io.tributary.tensor.DType.FLOAT32 && Broadcast.isSuffix(target, gs)) {
      float[] x = g.floats();
      float[] r = new float[n];
      for (int base = 0; n > 0 && base < x.length; base += n) {
        for (int j = 0; j < n; j++) {
          r[j] += x[base + j];
        }
      }
      return NdArray.wrapFloats(target, r);
    }
    double[] x = g.asDoubles();
    int[] map = Broadcast.indexMap(gs, Broadcast.strides(target, gs));
    double[] r = new double[n];
    for (int i = 0; i < x.length; i++) {
      r[map[i]] += x[i];
    }
    return NdArray.fromDoubles(g.dtype(), target, r);
  }
}
