package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;
import java.util.List;

/** {@code argmax(x; axis)}: int64 index of the first maximum along {@code axis} (default -1). */
final class ArgMaxOp extends BaseOp {
  ArgMaxOp() {
    super("argmax", 1);
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType x = in.get(0);
    Infer.requireFloat(x, "input 0");
    if (x.shape().rank() == 0) {
      throw OpInferenceException.shape("argmax needs rank >= 1, got a scalar");
    }
    int axis = Infer.axis(op.args().getInt("axis", -1), x.shape().rank(), "axis");
    long[] d = x.shape().dims();
    long[] out = new long[d.length - 1];
    for (int i = 0, k = 0; i < d.length; i++) {
      if (i != axis) {
        out[k++] = d[i];
      }
    }
    return List.of(new ValueType(DType.INT64, PartialShape.of(out)));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    NdArray x = in[0];
    long raw = op.args().getInt("axis", -1);
    int axis = (int) (raw < 0 ? raw + x.rank() : raw);
    int[] s = x.shapeRef();
    int outer = 1;
    for (int i = 0; i < axis; i++) {
      outer *= s[i];
    }
    int len = s[axis];
    if (len == 0) {
      throw new IllegalArgumentException("argmax over an empty axis of " + x);
    }
    int inner = x.size() / (outer * len);
    int[] outShape = new int[s.length - 1];
    for (int i = 0, k = 0; i < s.length; i++) {
      if (i != axis) {
        outShape[k++] = s[i];
      }
    }
    long[] r = argmax(x, outer, len, inner);
    return new NdArray[] {NdArray.wrapLongs(DType.INT64, outShape, r)};
  }

  static long[] argmax(NdArray x, int outer, int len, int inner) {
    long[] r = new long[outer * inner];
    if (x.dtype() == io.tributary.tensor.DType.FLOAT32 && inner == 1) {
      rowsFloat(x.floats(), outer, len, r);
      return r;
    }
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        int base = o * len * inner + i;
        double best = x.get(base);
        int at = 0;
        for (int c = 1; c < len; c++) {
          double v = x.get(base + c * inner);
          if (v > best) {
            best = v;
            at = c;
          }
        }
        r[o * inner + i] = at;
      }
    }
    return r;
  }

  /**
   * The argmax of each of {@code rows} rows of {@code len} floats, read from the array rather
   * than through {@link NdArray#get} (scoring a model takes one per example). Widening to double
   * keeps the order, so the result is the generic loop's, NaN and ties (the first wins) included.
   */
  private static void rowsFloat(float[] x, int rows, int len, long[] r) {
    for (int o = 0; o < rows; o++) {
      int base = o * len;
      float best = x[base];
      int at = 0;
      for (int c = 1; c < len; c++) {
        float v = x[base + c];
        if (v > best) {
          best = v;
          at = c;
        }
      }
      r[o] = at;
    }
  }
}
