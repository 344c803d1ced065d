package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.List;

/**
 * {@code concat(x0, x1, ...; axis)} joins arrays along an axis; {@code split_like(g, x0, x1, ...;
 * axis, index)} cuts out the piece of g that came from input {@code index} (concat's gradient).
 */
final class ConcatOp extends BaseOp {
  private final boolean split;

  ConcatOp(String type, boolean split) {
    super(type, split ? 2 : 1, Integer.MAX_VALUE, 1, split ? new String[] {"axis", "index"}
        : new String[] {"axis"});
    this.split = split;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    List<ValueType> parts = split ? in.subList(1, in.size()) : in;
    ValueType first = parts.get(0);
    if (!NdArray.supports(first.dtype())) {
      throw OpInferenceException.dtype("input has unsupported dtype " + first.dtype());
    }
    int rank = first.shape().rank();
    int axis = Infer.axis(op.args().getInt("axis", 0), rank, "axis");
    long[] out = first.shape().dims();
    for (int p = 1; p < parts.size(); p++) {
      ValueType t = parts.get(p);
      Infer.requireSameDType(first, t, "input " + p + " differs in dtype");
      if (t.shape().rank() != rank) {
        throw OpInferenceException.shape("inputs differ in rank: " + first.shape() + " vs " + t.shape());
      }
      for (int i = 0; i < rank; i++) {
        long d = t.shape().dim(i);
        if (i == axis) {
          out[i] = out[i] == PartialShape.UNKNOWN || d == PartialShape.UNKNOWN ? PartialShape.UNKNOWN
              : out[i] + d;
        } else if (!Infer.dimsAgree(out[i], d)) {
          throw OpInferenceException.shape("inputs differ off the concat axis: " + first.shape()
              + " vs " + t.shape());
        } else {
          out[i] = Infer.merge(out[i], d);
        }
      }
    }
    if (!split) {
      return List.of(new ValueType(first.dtype(), PartialShape.of(out)));
    }
    long index = op.args().getInt("index", -1);
    if (index < 0 || index >= parts.size()) {
      throw OpInferenceException.arg("index " + index + " is outside [0, " + parts.size() + ")");
    }
    ValueType g = in.get(0);
    Infer.requireSameDType(g, first, "gradient differs in dtype");
    if (!g.shape().compatibleWith(PartialShape.of(out))) {
      throw OpInferenceException.shape("gradient " + g.shape() + " does not match "
          + PartialShape.of(out));
    }
    return List.of(parts.get((int) index));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    int offset = split ? 1 : 0;
    NdArray first = in[offset];
    int rank = first.rank();
    long rawAxis = op.args().getInt("axis", 0);
    int axis = (int) (rawAxis < 0 ? rawAxis + rank : rawAxis);
    int outer = 1;
    for (int i = 0; i < axis; i++) {
      outer *= first.dim(i);
    }
    int total = 0;
    int[] widths = new int[in.length - offset];
    for (int p = 0; p < widths.length; p++) {
      NdArray t = in[offset + p];
      if (t.rank() != rank) {
        throw new IllegalArgumentException("inputs differ in rank: " + NdArray.describe(List.of(in)));
      }
      for (int i = 0; i < rank; i++) {
        if (i != axis && t.dim(i) != first.dim(i)) {
          throw new IllegalArgumentException("inputs differ off axis " + axis + ": "
              + NdArray.describe(List.of(in)));
        }
      }
      widths[p] = outer == 0 ? 0 : t.size() / outer;
      total += widths[p];
    }
    if (!split) {
      int[] outShape = first.shape();
      outShape[axis] = 0;
      for (int p = 0; p < widths.length; p++) {
        outShape[axis] += in[p].dim(axis);
      }
      NdArray y = NdArray.zeros(first.dtype(), outShape);
      int col = 0;
      for (int p = 0; p < widths.length; p++) {
        for (int o = 0; o < outer; o++) {
          for (int j = 0; j < widths[p]; j++) {
            y.set(o * total + col + j, in[p].get(o * widths[p] + j));
          }
        }
        col += widths[p];
      }
      return new NdArray[] {y};
    }
    int index = (int) op.args().getInt("index", 0);
    NdArray g = in[0];
    if (g.size() != outer * total) {
      throw new IllegalArgumentException("gradient " + g + " does not match the concatenation");
    }
    int col = 0;
    for (int p = 0; p < index; p++) {
      col += widths[p];
    }
    NdArray like = in[offset + index];
    NdArray y = NdArray.zeros(g.dtype(), like.shapeRef());
    for (int o = 0; o < outer; o++) {
      for (int j = 0; j < widths[index]; j++) {
        y.set(o * widths[index] + j, g.get(o * total + col + j));
      }
    }
    return new NdArray[] {y};
  }
}
