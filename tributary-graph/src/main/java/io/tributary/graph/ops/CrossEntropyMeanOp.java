package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.OpArgs;
import io.tributary.tensor.DType;
import java.util.List;

/**
 * The mean sparse softmax cross-entropy and its gradient with respect to the logits, in one pass
 * over the rows: {@code loss, d = fused_sparse_softmax_cross_entropy_mean(logits, labels, seed)}
 * stands for the four ops a training step's loss and its gradient are made of ({@link
 * LossFusion}):
 *
 * <pre>
 *   p = sparse_softmax_cross_entropy(logits, labels)
 *   loss = reduce_mean(p)
 *   g = unreduce(seed, p; mean)
 *   d = sparse_softmax_cross_entropy_grad(g, logits, labels)
 * </pre>
 *
 * <p>Each row's exponentials are computed once and used at once for its loss and its gradient,
 * with the arithmetic of the four kernels in their order ({@link CrossEntropyOp}, {@link
 * ReduceOp}), so the bits are theirs: the row's loss rounded to float, the mean summed in double
 * over those floats and divided by the row count, each gradient row scaled by the float {@code
 * (float) (seed * (1.0 / n))}. Logits that are not float32, labels that are not integers or a seed
 * that is not one float32 run the four ops' own kernels. Keeps one row of exponentials from run to
 * run ({@link #workspaces()}).
 */
final class CrossEntropyMeanOp extends FusedOp {
  static final CrossEntropyMeanOp INSTANCE = new CrossEntropyMeanOp();
  private static final OpArgs MEAN = OpArgs.builder().putBool("keep_dims", false)
      .putBool("mean", true).build();
  /** The shape of the scalar loss; never written. */
  private static final int[] SCALAR = new int[0];

  private CrossEntropyMeanOp() {
    super(LossFusion.TYPE, 3, 3, 2);
  }

  @Override
  int workspaces() {
    return 1;
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    NdArray logits = in[0];
    NdArray labels = in[1];
    NdArray seed = in[2];
    if (logits.dtype() != DType.FLOAT32 || logits.rank() != 2 || labels.rank() != 1
        || !(labels.dtype() == DType.INT64 || labels.dtype() == DType.INT32)
        || seed.dtype() != DType.FLOAT32 || seed.size() != 1) {
      return unfused(op, in);
    }
    int n = logits.dim(0);
    int c = logits.dim(1);
    float[] z = logits.floats();
    long[] y = labels.longs();
    CrossEntropyOp.checkLabels(y, n, c);
    NdArray loss = NdArray.reuseOrZeros(NdArray.previous(previous, 0), DType.FLOAT32, SCALAR);
    NdArray grad = NdArray.reuseOrZeros(NdArray.previous(previous, 1), DType.FLOAT32,
        logits.shapeRef());
    NdArray work = NdArray.previous(previous, 2);
    if (work == null || work.dtype() != DType.FLOAT64 || work.size() != c) {
      work = NdArray.zeros(DType.FLOAT64, c);
      if (previous != null && previous.length > 2) {
        previous[2] = work;
      }
    }
    loss.floats()[0] = rows(z, y, n, c, seed.floats()[0], grad.floats(), work.doubles());
    return new NdArray[] {loss, grad};
  }

  /**
   * Writes the gradient rows into {@code r} and returns the mean loss: the four kernels'
   * arithmetic, row by row, {@code e} holding one row's exponentials.
   */
  private static float rows(float[] z, long[] labels, int n, int c, float seed, float[] r,
      double[] e) {
    // unreduce's value: the seed times 1/n, rounded to float once for every row.
    double g = (float) (seed * (1.0 / n));
    double total = 0;
    for (int i = 0; i < n; i++) {
      int base = i * c;
      float max = CrossEntropyOp.rowMax(z, base, c);
      int label = (int) labels[i];
      double sum = 0;
      for (int j = 0; j < c; j++) {
        double x = Exponentials.of((double) z[base + j] - max);
        e[j] = x;
        sum += x;
      }
      float rowLoss = (float) -((double) z[base + label] - max - Math.log(sum));
      total += rowLoss;
      for (int j = 0; j < c; j++) {
        double v = e[j] / sum - (label == j ? 1.0 : 0.0);
        r[base + j] = (float) (g * v);
      }
    }
    return (float) (total / n);
  }

  /** The four ops' own kernels, one after the other. */
  private static NdArray[] unfused(Op op, NdArray[] in) {
    OpRegistry ops = OpRegistry.standard();
    NdArray p = ops.find("sparse_softmax_cross_entropy").orElseThrow()
        .compute(part(op, "sparse_softmax_cross_entropy", OpArgs.none()),
            new NdArray[] {in[0], in[1]})[0];
    NdArray loss = ops.find("reduce_mean").orElseThrow()
        .compute(part(op, "reduce_mean", OpArgs.none()), new NdArray[] {p})[0];
    NdArray g = ops.find("unreduce").orElseThrow()
        .compute(part(op, "unreduce", MEAN), new NdArray[] {in[2], p})[0];
    NdArray d = ops.find("sparse_softmax_cross_entropy_grad").orElseThrow()
        .compute(part(op, "sparse_softmax_cross_entropy_grad", OpArgs.none()),
            new NdArray[] {g, in[0], in[1]})[0];
    return new NdArray[] {loss, d};
  }

  private static Op part(Op op, String type, OpArgs args) {
    return new Op(op.name(), type, List.of(), List.of(), args);
  }
}
