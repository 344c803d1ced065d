package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.tensor.DType;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/** Element-wise functions of one floating input: relu, sigmoid, tanh, neg, exp, log, square. */
final class UnaryOp extends BaseOp {
  private final DoubleUnaryOperator fn;

  UnaryOp(String type, DoubleUnaryOperator fn) {
    super(type, 1);
    this.fn = fn;
  }

  static UnaryOp relu() {
    return new UnaryOp("relu", v -> v > 0 ? v : 0.0);
  }

  static UnaryOp sigmoid() {
    return new UnaryOp("sigmoid", UnaryOp::sigmoid);
  }

  static double sigmoid(double v) {
    // Written two ways so exp never overflows.
    if (v >= 0) {
      return 1.0 / (1.0 + Math.exp(-v));
    }
    double e = Math.exp(v);
    return e / (1.0 + e);
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
    NdArray x = in[0];
    if (x.dtype() == DType.FLOAT32 && (type().equals("relu") || type().equals("square"))) {
      float[] a = x.floats();
      NdArray result = NdArray.reuseOrZeros(NdArray.previous(previous, 0), x.dtype(),
          x.shapeRef());
      float[] r = result.floats();
      if (type().equals("relu")) {
        for (int i = 0; i < a.length; i++) {
          r[i] = Math.max(a[i], 0f);
        }
      } else {
        // The float product is the double product rounded once, as the generic path computes it.
        for (int i = 0; i < a.length; i++) {
          r[i] = a[i] * a[i];
        }
      }
      return new NdArray[] {result};
    }
    double[] a = x.asDoubles();
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = fn.applyAsDouble(a[i]);
    }
    return new NdArray[] {NdArray.fromDoubles(x.dtype(), x.shapeRef(), r)};
  }
}
