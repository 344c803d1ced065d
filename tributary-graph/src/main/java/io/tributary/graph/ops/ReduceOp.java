package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.Arrays;
import java.util.List;

/**
 * Reductions over {@code axes} (all axes when absent), keeping reduced axes as size 1 when
 * {@code keep_dims}: {@code reduce_sum}, {@code reduce_mean}, {@code reduce_max}; and their
 * gradients {@code unreduce(g, x; mean)} (spreads g back over x's shape) and {@code
 * reduce_max_grad(g, x, y)} (routes g to the maxima, split evenly among ties).
 */
final class ReduceOp extends BaseOp {
  enum Kind {
    SUM, MEAN, MAX, UNREDUCE, MAX_GRAD
  }

  private final Kind kind;

  ReduceOp(String type, Kind kind) {
    super(type, switch (kind) {
      case SUM, MEAN, MAX -> 1;
      case UNREDUCE -> 2;
      case MAX_GRAD -> 3;
    });
    this.kind = kind;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    boolean forward = kind == Kind.SUM || kind == Kind.MEAN || kind == Kind.MAX;
    ValueType x = in.get(forward ? 0 : 1);
    Infer.requireFloat(x, "input " + (forward ? 0 : 1));
    int[] axes = Infer.reductionAxes(op, x.shape().rank());
    boolean keep = op.args().getBool("keep_dims", false);
    PartialShape reduced = reducedShape(x.shape(), axes, keep);
    if (forward) {
      return List.of(new ValueType(x.dtype(), reduced));
    }
    ValueType g = in.get(0);
    Infer.requireSameDType(g, x, "gradient and input differ in dtype");
    if (!g.shape().compatibleWith(reduced)) {
      throw OpInferenceException.shape("gradient " + g.shape() + " does not match the reduced shape "
          + reduced);
    }
    if (kind == Kind.MAX_GRAD) {
      Infer.requireSameDType(in.get(2), x, "maximum and input differ in dtype");
      if (!in.get(2).shape().compatibleWith(reduced)) {
        throw OpInferenceException.shape("maximum " + in.get(2).shape()
            + " does not match the reduced shape " + reduced);
      }
    }
    return List.of(x);
  }

  static PartialShape reducedShape(PartialShape s, int[] axes, boolean keep) {
    long[] d = s.dims();
    long[] out = new long[keep ? d.length : d.length - axes.length];
    int k = 0;
    for (int i = 0; i < d.length; i++) {
      boolean reduced = Arrays.binarySearch(axes, i) >= 0;
      if (!reduced) {
        out[k++] = d[i];
      } else if (keep) {
        out[k++] = 1;
      }
    }
    return PartialShape.of(out);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    boolean forward = kind == Kind.SUM || kind == Kind.MEAN || kind == Kind.MAX;
    NdArray x = in[forward ? 0 : 1];
    int[] xs = x.shapeRef();
    // Every axis (no axes given; a training step's loss mean and its gradient): no shapes or
    // index maps to build, so the step allocates nothing here.
    if (x.dtype() == io.tributary.tensor.DType.FLOAT32 && in[0].dtype() == x.dtype()
        && kind != Kind.MAX && kind != Kind.MAX_GRAD && xs.length > 0
        && op.args().getIntList("axes") == null) {
      boolean keep = op.args().getBool("keep_dims", false);
      int[] outShape = kind == Kind.UNREDUCE ? xs : keep ? ones(xs.length) : NO_DIMS;
      return new NdArray[] {reduceAllFloat(op, in, x, outShape, x.size(),
          NdArray.previous(previous, 0))};
    }
    int[] axes = runtimeAxes(op, xs.length);
    int[] keepShape = xs.clone();
    int count = 1;
    for (int a : axes) {
      keepShape[a] = 1;
      count *= xs[a];
    }
    boolean keep = op.args().getBool("keep_dims", false);
    int[] outShape = keep ? keepShape : dropAxes(xs, axes);
    if (x.dtype() == io.tributary.tensor.DType.FLOAT32 && NdArray.sizeOf(keepShape) == 1
        && in[0].dtype() == x.dtype() && kind != Kind.MAX && kind != Kind.MAX_GRAD) {
      return new NdArray[] {reduceAllFloat(op, in, x, outShape, count,
          NdArray.previous(previous, 0))};
    }
    int[] map = Broadcast.indexMap(xs, Broadcast.strides(keepShape, xs));
    int m = NdArray.sizeOf(keepShape);
    double[] a = x.asDoubles();
    switch (kind) {
      case SUM, MEAN, MAX -> {
        double[] r = new double[m];
        if (kind == Kind.MAX) {
          if (count == 0) {
            throw new IllegalArgumentException("max over an empty axis");
          }
          Arrays.fill(r, Double.NEGATIVE_INFINITY);
          for (int i = 0; i < a.length; i++) {
            r[map[i]] = Math.max(r[map[i]], a[i]);
          }
        } else {
          for (int i = 0; i < a.length; i++) {
            r[map[i]] += a[i];
          }
          if (kind == Kind.MEAN) {
            for (int j = 0; j < m; j++) {
              r[j] /= count;
            }
          }
        }
        return new NdArray[] {NdArray.fromDoubles(x.dtype(), outShape, r)};
      }
      default -> {
        double[] g = in[0].asDoubles();
        if (g.length != m) {
          throw new IllegalArgumentException("gradient has " + g.length + " elements, expected " + m);
        }
        double[] r = new double[a.length];
        if (kind == Kind.UNREDUCE) {
          double scale = op.args().getBool("mean", false) ? 1.0 / count : 1.0;
          for (int i = 0; i < a.length; i++) {
            r[i] = g[map[i]] * scale;
          }
        } else {
          double[] y = in[2].asDoubles();
          if (y.length != m) {
            throw new IllegalArgumentException("maximum has " + y.length + " elements, expected " + m);
          }
          int[] ties = new int[m];
          for (int i = 0; i < a.length; i++) {
            if (a[i] == y[map[i]]) {
              ties[map[i]]++;
            }
          }
          for (int i = 0; i < a.length; i++) {
            r[i] = a[i] == y[map[i]] ? g[map[i]] / ties[map[i]] : 0.0;
          }
        }
        return new NdArray[] {NdArray.fromDoubles(x.dtype(), xs, r)};
      }
    }
  }

  /**
   * Sum, mean or unreduce over every axis of a float32 array, without index maps or double
   * copies. The arithmetic is the generic path's, in double and in the same order, so the
   * results are the same to the bit.
   */
  private NdArray reduceAllFloat(Op op, NdArray[] in, NdArray x, int[] outShape, int count,
      NdArray reuse) {
    float[] a = x.floats();
    if (kind == Kind.UNREDUCE) {
      if (in[0].size() != 1) {
        throw new IllegalArgumentException("gradient has " + in[0].size()
            + " elements, expected 1");
      }
      double scale = op.args().getBool("mean", false) ? 1.0 / count : 1.0;
      NdArray result = NdArray.reuseOrZeros(reuse, x.dtype(), x.shapeRef());
      java.util.Arrays.fill(result.floats(), (float) (in[0].floats()[0] * scale));
      return result;
    }
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i];
    }
    if (kind == Kind.MEAN) {
      sum /= count;
    }
    NdArray result = NdArray.reuseOrZeros(reuse, x.dtype(), outShape);
    result.floats()[0] = (float) sum;
    return result;
  }

  /** The shape of a scalar; never written. */
  private static final int[] NO_DIMS = new int[0];

  private static int[] ones(int rank) {
    int[] d = new int[rank];
    Arrays.fill(d, 1);
    return d;
  }

  private static int[] runtimeAxes(Op op, int rank) {
    try {
      return Infer.reductionAxes(op, rank);
    } catch (OpInferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static int[] dropAxes(int[] s, int[] axes) {
    int[] out = new int[s.length - axes.length];
    int k = 0;
    for (int i = 0; i < s.length; i++) {
      if (Arrays.binarySearch(axes, i) < 0) {
        out[k++] = s[i];
      }
    }
    return out;
  }
}
