package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.List;

/**
 * Softmax cross-entropy of logits [N, C], one loss per row ([N]):
 *
 * <ul>
 *   <li>{@code sparse_softmax_cross_entropy(logits, labels)}: labels are class indices [N], int32/int64;
 *   <li>{@code softmax_cross_entropy(logits, labels)}: labels are distributions [N, C];
 *   <li>{@code sparse_softmax_cross_entropy_grad(g, logits, labels)} and {@code
 *       softmax_cross_entropy_grad(g, logits, labels)}: the gradient with respect to the logits;
 *   <li>{@code softmax_cross_entropy_labels_grad(g, logits)}: the gradient with respect to dense labels.
 * </ul>
 */
final class CrossEntropyOp extends BaseOp {
  enum Kind {
    SPARSE, DENSE, SPARSE_GRAD, DENSE_GRAD, LABELS_GRAD
  }

  private final Kind kind;

  CrossEntropyOp(String type, Kind kind) {
    super(type, switch (kind) {
      case SPARSE, DENSE, LABELS_GRAD -> 2;
      case SPARSE_GRAD, DENSE_GRAD -> 3;
    });
    this.kind = kind;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    boolean grad = kind != Kind.SPARSE && kind != Kind.DENSE;
    int li = grad ? 1 : 0;
    ValueType logits = in.get(li);
    Infer.requireFloat(logits, "logits");
    Infer.requireRank(logits, 2, "logits");
    PartialShape ls = logits.shape();
    if (grad) {
      ValueType g = in.get(0);
      Infer.requireSameDType(g, logits, "gradient and logits differ in dtype");
      Infer.requireRank(g, 1, "gradient");
      if (!Infer.dimsAgree(g.shape().dim(0), ls.dim(0))) {
        throw OpInferenceException.shape("gradient " + g.shape() + " does not match logits " + ls);
      }
    }
    if (kind != Kind.LABELS_GRAD) {
      ValueType labels = in.get(li + 1);
      if (kind == Kind.SPARSE || kind == Kind.SPARSE_GRAD) {
        Infer.requireInt(labels, "labels");
        Infer.requireRank(labels, 1, "labels");
        if (!Infer.dimsAgree(labels.shape().dim(0), ls.dim(0))) {
          throw OpInferenceException.shape("labels " + labels.shape() + " do not match logits " + ls);
        }
      } else {
        Infer.requireSameDType(labels, logits, "labels and logits differ in dtype");
        if (!labels.shape().compatibleWith(ls)) {
          throw OpInferenceException.shape("labels " + labels.shape() + " do not match logits " + ls);
        }
      }
    }
    if (grad) {
      return List.of(logits);
    }
    return List.of(new ValueType(logits.dtype(), PartialShape.of(ls.dim(0))));
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    boolean grad = kind != Kind.SPARSE && kind != Kind.DENSE;
    NdArray logits = in[grad ? 1 : 0];
    int n = logits.dim(0);
    int c = logits.dim(1);
    if ((kind == Kind.SPARSE || kind == Kind.SPARSE_GRAD)
        && logits.dtype() == io.tributary.tensor.DType.FLOAT32) {
      return new NdArray[] {sparseFloat(in, logits, n, c, NdArray.previous(previous, 0), null)};
    }
    double[] z = logits.asDoubles();
    double[] logp = new double[z.length];
    for (int i = 0; i < n; i++) {
      SoftmaxOp.forward(z, logp, i * c, c, 1, true);
    }
    double[] g = grad ? in[0].asDoubles() : null;
    if (g != null && g.length != n) {
      throw new IllegalArgumentException("gradient has " + g.length + " rows, logits " + n);
    }
    NdArray labelsArr = kind == Kind.LABELS_GRAD ? null : in[grad ? 2 : 1];
    long[] sparse = null;
    double[] dense = null;
    if (labelsArr != null) {
      if (kind == Kind.SPARSE || kind == Kind.SPARSE_GRAD) {
        sparse = labelsArr.longs();
        if (sparse.length != n) {
          throw new IllegalArgumentException("labels have " + sparse.length + " rows, logits " + n);
        }
        for (int i = 0; i < n; i++) {
          if (sparse[i] < 0 || sparse[i] >= c) {
            throw new IllegalArgumentException(
                "label " + sparse[i] + " at row " + i + " is outside [0, " + c + ")");
          }
        }
      } else {
        dense = labelsArr.asDoubles();
        if (dense.length != z.length) {
          throw new IllegalArgumentException("labels and logits differ in shape: "
              + NdArray.describe(List.of(labelsArr, logits)));
        }
      }
    }
    switch (kind) {
      case SPARSE, DENSE -> {
        double[] loss = new double[n];
        for (int i = 0; i < n; i++) {
          if (sparse != null) {
            loss[i] = -logp[i * c + (int) sparse[i]];
          } else {
            double s = 0;
            for (int j = 0; j < c; j++) {
              s -= dense[i * c + j] * logp[i * c + j];
            }
            loss[i] = s;
          }
        }
        return new NdArray[] {NdArray.fromDoubles(logits.dtype(), new int[] {n}, loss)};
      }
      default -> {
        double[] r = new double[z.length];
        for (int i = 0; i < n; i++) {
          double labelMass = 1.0;
          if (dense != null) {
            labelMass = 0;
            for (int j = 0; j < c; j++) {
              labelMass += dense[i * c + j];
            }
          }
          for (int j = 0; j < c; j++) {
            int at = i * c + j;
            double v;
            if (kind == Kind.LABELS_GRAD) {
              v = -logp[at];
            } else {
              double target = sparse != null ? (sparse[i] == j ? 1.0 : 0.0) : dense[at];
              v = Math.exp(logp[at]) * labelMass - target;
            }
            r[at] = g[i] * v;
          }
        }
        return new NdArray[] {NdArray.fromDoubles(logits.dtype(), logits.shapeRef(), r)};
      }
    }
  }

  /**
   * The sparse loss or its gradient on float32 logits, one row at a time in double (rounded to
   * float at the end), without converting whole arrays to double. The gradient takes each
   * probability as exp(z - max) / sum, one exponential per element where the generic path
   * spends two; the two forms differ by rounding only. The exponentials come from {@link
   * Exponentials}, about twice as fast as {@code Math.exp}.
   */
  private NdArray sparseFloat(NdArray[] in, NdArray logits, int n, int c, NdArray reuse,
      SoftmaxRows shared) {
    boolean grad = kind == Kind.SPARSE_GRAD;
    float[] z = logits.floats();
    long[] labels = in[grad ? 2 : 1].longs();
    checkLabels(labels, n, c);
    float[] g = grad ? in[0].floats() : null;
    if (g != null && g.length != n) {
      throw new IllegalArgumentException("gradient has " + g.length + " rows, logits " + n);
    }
    NdArray result = grad ? NdArray.reuseOrZeros(reuse, logits.dtype(), logits.shapeRef())
        : NdArray.reuseOrZeros(reuse, logits.dtype(), new int[] {n});
    float[] r = result.floats();
    if (shared != null) {
      if (!grad) {
        lossKeepingExps(z, labels, n, c, r, shared);
        return result;
      }
      if (shared.matches(z, n, c)) {
        gradFromExps(labels, g, n, c, r, shared);
        return result;
      }
    }
    double[] e = grad ? new double[c] : null;
    for (int i = 0; i < n; i++) {
      int base = i * c;
      float max = rowMax(z, base, c);
      int label = (int) labels[i];
      double sum = 0;
      if (!grad) {
        for (int j = 0; j < c; j++) {
          sum += Exponentials.of((double) z[base + j] - max);
        }
        r[i] = (float) -((double) z[base + label] - max - Math.log(sum));
        continue;
      }
      for (int j = 0; j < c; j++) {
        e[j] = Exponentials.of((double) z[base + j] - max);
        sum += e[j];
      }
      for (int j = 0; j < c; j++) {
        double v = e[j] / sum - (label == j ? 1.0 : 0.0);
        r[base + j] = (float) (g[i] * v);
      }
    }
    return result;
  }

  /**
   * Throws, naming the first misfit, unless there are {@code n} labels, each a class in {@code [0,
   * c)}.
   */
  static void checkLabels(long[] labels, int n, int c) {
    if (labels.length != n) {
      throw new IllegalArgumentException("labels have " + labels.length + " rows, logits " + n);
    }
    for (int i = 0; i < n; i++) {
      if (labels[i] < 0 || labels[i] >= c) {
        throw new IllegalArgumentException(
            "label " + labels[i] + " at row " + i + " is outside [0, " + c + ")");
      }
    }
  }

  /**
   * {@link #compute} for a kernel paired with the other half of a sparse float32 cross-entropy
   * on the same logits and labels ({@link Plan} pairs them): the loss keeps its exponentials in
   * {@code shared}, and the gradient uses them when they were computed from the same array. The
   * results are bit-identical to the unpaired kernel's, which computes the same exponentials and
   * sums in the same order.
   */
  NdArray[] computeShared(Op op, NdArray[] in, NdArray[] previous, SoftmaxRows shared) {
    boolean grad = kind == Kind.SPARSE_GRAD;
    NdArray logits = in[grad ? 1 : 0];
    if ((kind != Kind.SPARSE && kind != Kind.SPARSE_GRAD)
        || logits.dtype() != io.tributary.tensor.DType.FLOAT32) {
      shared.clear();
      return compute(op, in, previous);
    }
    return new NdArray[] {sparseFloat(in, logits, logits.dim(0), logits.dim(1),
        NdArray.previous(previous, 0), shared)};
  }

  private static void lossKeepingExps(float[] z, long[] labels, int n, int c, float[] r,
      SoftmaxRows shared) {
    shared.begin(z, n, c);
    double[] e = shared.exps();
    double[] sums = shared.sums();
    for (int i = 0; i < n; i++) {
      int base = i * c;
      float max = rowMax(z, base, c);
      double sum = 0;
      for (int j = 0; j < c; j++) {
        double x = Exponentials.of((double) z[base + j] - max);
        e[base + j] = x;
        sum += x;
      }
      sums[i] = sum;
      r[i] = (float) -((double) z[base + (int) labels[i]] - max - Math.log(sum));
    }
    shared.finish(z);
  }

  /**
   * The largest of {@code z[base .. base + c)}, by a plain comparison rather than Math.max: it
   * differs only on NaN (which makes every probability of the row NaN either way) and on the sign
   * of a zero maximum.
   */
  static float rowMax(float[] z, int base, int c) {
    float max = Float.NEGATIVE_INFINITY;
    for (int j = 0; j < c; j++) {
      float v = z[base + j];
      max = v > max ? v : max;
    }
    return max;
  }

  private static void gradFromExps(long[] labels, float[] g, int n, int c, float[] r,
      SoftmaxRows shared) {
    double[] e = shared.exps();
    double[] sums = shared.sums();
    for (int i = 0; i < n; i++) {
      int base = i * c;
      int label = (int) labels[i];
      double sum = sums[i];
      for (int j = 0; j < c; j++) {
        double v = e[base + j] / sum - (label == j ? 1.0 : 0.0);
        r[base + j] = (float) (g[i] * v);
      }
    }
  }
}
