package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.tensor.DType;
import java.util.List;

/** {@code scale(x; factor)}: multiplies every element by a floating argument. */
final class ScaleOp extends BaseOp {
  ScaleOp() {
    super("scale", 1, "factor");
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    Infer.requireFloat(in.get(0), "input 0");
    double f = op.args().getFloat("factor", Double.NaN);
    if (!Double.isFinite(f)) {
      throw OpInferenceException.arg("factor must be a finite floating argument, got " + f);
    }
    return List.of(in.get(0));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    double f = op.args().getFloat("factor", 1.0);
    if (in[0].dtype() == DType.FLOAT32) {
      float[] a = in[0].floats();
      NdArray result = NdArray.reuseOrZeros(NdArray.previous(previous, 0), DType.FLOAT32,
          in[0].shapeRef());
      float[] r = result.floats();
      for (int i = 0; i < a.length; i++) {
        r[i] = (float) (a[i] * f);
      }
      return new NdArray[] {result};
    }
    double[] a = in[0].asDoubles();
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] * f;
    }
    return new NdArray[] {NdArray.fromDoubles(in[0].dtype(), in[0].shapeRef(), r)};
  }
}
