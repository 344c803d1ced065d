package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.Arrays;
import java.util.List;

/** {@code transpose(x; perm)}: output axis i is input axis perm[i] (reversed axes when perm is absent). */
final class TransposeOp extends BaseOp {
  TransposeOp() {
    super("transpose", 1);
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType x = in.get(0);
    if (!NdArray.supports(x.dtype())) {
      throw OpInferenceException.dtype("input 0 has unsupported dtype " + x.dtype());
    }
    int[] perm = perm(op, x.shape().rank());
    long[] out = new long[perm.length];
    for (int i = 0; i < perm.length; i++) {
      out[i] = x.shape().dim(perm[i]);
    }
    return List.of(new ValueType(x.dtype(), PartialShape.of(out)));
  }

  static int[] perm(Op op, int rank) throws OpInferenceException {
    long[] raw = Infer.intList(op, "perm");
    int[] perm = new int[rank];
    if (raw == null) {
      for (int i = 0; i < rank; i++) {
        perm[i] = rank - 1 - i;
      }
      return perm;
    }
    if (raw.length != rank) {
      throw OpInferenceException.arg("perm " + Arrays.toString(raw) + " does not have rank " + rank);
    }
    boolean[] seen = new boolean[rank];
    for (int i = 0; i < rank; i++) {
      if (raw[i] < 0 || raw[i] >= rank || seen[(int) raw[i]]) {
        throw OpInferenceException.arg("perm " + Arrays.toString(raw) + " is not a permutation");
      }
      seen[(int) raw[i]] = true;
      perm[i] = (int) raw[i];
    }
    return perm;
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    NdArray x = in[0];
    int[] perm;
    try {
      perm = perm(op, x.rank());
    } catch (OpInferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    int[] xs = x.shapeRef();
    int r = xs.length;
    int[] out = new int[r];
    int[] inStride = new int[r];
    int s = 1;
    for (int i = r - 1; i >= 0; i--) {
      inStride[i] = s;
      s *= xs[i];
    }
    int[] strides = new int[r];
    for (int i = 0; i < r; i++) {
      out[i] = xs[perm[i]];
      strides[i] = inStride[perm[i]];
    }
    int[] map = Broadcast.indexMap(out, strides);
    NdArray y = NdArray.zeros(x.dtype(), out);
    for (int i = 0; i < map.length; i++) {
      y.set(i, x.get(map[i]));
    }
    return new NdArray[] {y};
  }
}
