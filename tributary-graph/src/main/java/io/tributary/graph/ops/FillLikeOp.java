package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.Arrays;
import java.util.List;

/** {@code ones_like(x)} and {@code zeros_like(x)}: a constant array of x's dtype and shape. */
final class FillLikeOp extends BaseOp {
  private final double value;

  FillLikeOp(String type, double value) {
    super(type, 1);
    this.value = value;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    Infer.requireFloat(in.get(0), "input 0");
    return List.of(in.get(0));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    if (in[0].dtype() == io.tributary.tensor.DType.FLOAT32) {
      NdArray result = NdArray.reuseOrZeros(NdArray.previous(previous, 0), in[0].dtype(),
          in[0].shapeRef());
      Arrays.fill(result.floats(), (float) value);
      return new NdArray[] {result};
    }
    double[] r = new double[in[0].size()];
    Arrays.fill(r, value);
    return new NdArray[] {NdArray.fromDoubles(in[0].dtype(), in[0].shapeRef(), r)};
  }
}
