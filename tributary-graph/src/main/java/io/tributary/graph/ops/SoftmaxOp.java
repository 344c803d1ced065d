package io.tributary.graph.ops;

import io.tributary.graph.Op;
import java.util.List;

/**
 * {@code softmax} and {@code log_softmax} along {@code axis} (default -1), and their gradients
 * {@code softmax_grad(g, y)} and {@code log_softmax_grad(g, y)}, which take the op's output y.
 */
final class SoftmaxOp extends BaseOp {
  enum Kind {
    SOFTMAX, LOG_SOFTMAX, SOFTMAX_GRAD, LOG_SOFTMAX_GRAD
  }

  private final Kind kind;

  SoftmaxOp(String type, Kind kind) {
    super(type, kind == Kind.SOFTMAX || kind == Kind.LOG_SOFTMAX ? 1 : 2);
    this.kind = kind;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType x = in.get(0);
    Infer.requireFloat(x, "input 0");
    if (x.shape().rank() == 0) {
      throw OpInferenceException.shape("input 0 must have rank >= 1, got a scalar");
    }
    Infer.axis(op.args().getInt("axis", -1), x.shape().rank(), "axis");
    if (in.size() == 2) {
      Infer.requireSameDType(x, in.get(1), "inputs 0 and 1 differ in dtype");
      if (!x.shape().compatibleWith(in.get(1).shape())) {
        throw OpInferenceException.shape("gradient " + x.shape() + " and output "
            + in.get(1).shape() + " differ in shape");
      }
    }
    return List.of(x);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    NdArray x = in[0];
    int rank = x.rank();
    long rawAxis = op.args().getInt("axis", -1);
    int axis = (int) (rawAxis < 0 ? rawAxis + rank : rawAxis);
    int[] s = x.shapeRef();
    int outer = 1;
    for (int i = 0; i < axis; i++) {
      outer *= s[i];
    }
    int len = s[axis];
    int inner = x.size() / Math.max(1, outer * len);
    double[] a = x.asDoubles();
    double[] y = in.length > 1 ? in[1].asDoubles() : null;
    if (y != null && y.length != a.length) {
      throw new IllegalArgumentException("shapes differ: " + NdArray.describe(List.of(in)));
    }
    double[] r = new double[a.length];
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        int base = o * len * inner + i;
        switch (kind) {
          case SOFTMAX, LOG_SOFTMAX -> forward(a, r, base, len, inner, kind == Kind.LOG_SOFTMAX);
          case SOFTMAX_GRAD -> {
            double dot = 0;
            for (int c = 0; c < len; c++) {
              dot += a[base + c * inner] * y[base + c * inner];
            }
            for (int c = 0; c < len; c++) {
              int at = base + c * inner;
              r[at] = y[at] * (a[at] - dot);
            }
          }
          case LOG_SOFTMAX_GRAD -> {
            double sum = 0;
            for (int c = 0; c < len; c++) {
              sum += a[base + c * inner];
            }
            for (int c = 0; c < len; c++) {
              int at = base + c * inner;
              r[at] = a[at] - Math.exp(y[at]) * sum;
            }
          }
        }
      }
    }
    return new NdArray[] {NdArray.fromDoubles(x.dtype(), s, r)};
  }

  /** Softmax (or its log) of the strided slice at {@code base}, shifted by the max for stability. */
  static void forward(double[] a, double[] r, int base, int len, int stride, boolean log) {
    double max = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < len; c++) {
      max = Math.max(max, a[base + c * stride]);
    }
    double sum = 0;
    for (int c = 0; c < len; c++) {
      sum += Math.exp(a[base + c * stride] - max);
    }
    double logSum = Math.log(sum);
    for (int c = 0; c < len; c++) {
      int at = base + c * stride;
      r[at] = log ? a[at] - max - logSum : Math.exp(a[at] - max - logSum);
    }
  }
}
