package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;
import java.util.List;

/**
 * {@code max_pool(x; kernel_h, kernel_w, stride_h, stride_w)} over NHWC input with no padding (the
 * strides default to the kernel), and {@code max_pool_grad(g, x)}, which routes each gradient to the
 * first maximum of its window.
 */
final class MaxPoolOp extends BaseOp {
  /** Pools over fewer input elements than this stay on one thread: a fork would cost more. */
  private static final long PARALLEL_MIN_ELEMENTS = 1L << 15;
  private final boolean grad;

  MaxPoolOp(String type, boolean grad) {
    super(type, grad ? 2 : 1, "kernel_h", "kernel_w");
    this.grad = grad;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    ValueType x = in.get(grad ? 1 : 0);
    Infer.requireFloat(x, "input");
    Infer.requireRank(x, 4, "input (NHWC)");
    ConvGeometry geo = ConvGeometry.pool(op);
    PartialShape xs = x.shape();
    long oh = geo.outH(xs.dim(1));
    long ow = geo.outW(xs.dim(2));
    if (oh == -2 || ow == -2) {
      throw OpInferenceException.shape("pooling window " + geo.kh() + "x" + geo.kw()
          + " does not fit input " + xs);
    }
    PartialShape out = PartialShape.of(xs.dim(0), oh, ow, xs.dim(3));
    if (!grad) {
      return List.of(new ValueType(x.dtype(), out));
    }
    Infer.requireSameDType(in.get(0), x, "gradient differs in dtype");
    if (!in.get(0).shape().compatibleWith(out)) {
      throw OpInferenceException.shape("gradient " + in.get(0).shape() + " does not match output " + out);
    }
    return List.of(x);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous) {
    return compute(op, in, previous, GemmKernel.DEFAULT);
  }

  /**
   * With the Vector API kernel, float32 pools run on {@link VectorPool} (the same bits); the
   * images are split over {@code gemm}'s threads.
   */
  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    NdArray x = in[grad ? 1 : 0];
    if (x.rank() != 4) {
      throw new IllegalArgumentException("max_pool needs NHWC input, got " + x);
    }
    ConvGeometry geo = ConvGeometry.poolAtRuntime(op);
    int n = x.dim(0);
    int h = x.dim(1);
    int w = x.dim(2);
    int c = x.dim(3);
    int oh = (int) geo.outH(h);
    int ow = (int) geo.outW(w);
    if (oh < 1 || ow < 1) {
      throw new IllegalArgumentException("pooling window does not fit input " + x);
    }
    if (x.dtype() == DType.FLOAT32 && (!grad || in[0].dtype() == DType.FLOAT32)) {
      if (grad && in[0].size() != n * oh * ow * c) {
        throw new IllegalArgumentException("gradient " + in[0] + " does not match the output");
      }
      int[] shape = grad ? x.shapeRef() : new int[] {n, oh, ow, c};
      NdArray out = NdArray.reuseOrZeros(NdArray.previous(previous, 0), DType.FLOAT32, shape);
      boolean vector = gemm.implementation() == Gemm.Kernel.VECTOR && gemm.isAvailable();
      float[] xf = x.floats();
      float[] gf = grad ? in[0].floats() : null;
      float[] of = out.floats();
      // Images go to the threads whole: each writes only its own images' outputs.
      long work = (long) n * h * w * c;
      RowSplit.run(work >= PARALLEL_MIN_ELEMENTS ? gemm.threads() : 1, n, 1, 1, (from, to) ->
          poolFloat(xf, gf, of, from, to, h, w, c, oh, ow, geo, vector));
      return new NdArray[] {out};
    }
    double[] xd = x.asDoubles();
    double[] g = grad ? in[0].asDoubles() : null;
    if (g != null && g.length != n * oh * ow * c) {
      throw new IllegalArgumentException("gradient " + in[0] + " does not match the output");
    }
    double[] out = grad ? new double[xd.length] : new double[n * oh * ow * c];
    for (int b = 0; b < n; b++) {
      for (int oy = 0; oy < oh; oy++) {
        for (int ox = 0; ox < ow; ox++) {
          for (int ch = 0; ch < c; ch++) {
            double best = Double.NEGATIVE_INFINITY;
            int bestAt = -1;
            for (int ky = 0; ky < geo.kh(); ky++) {
              for (int kx = 0; kx < geo.kw(); kx++) {
                int at = ((b * h + oy * geo.sh() + ky) * w + ox * geo.sw() + kx) * c + ch;
                if (bestAt < 0 || xd[at] > best) {
                  best = xd[at];
                  bestAt = at;
                }
              }
            }
            int o = ((b * oh + oy) * ow + ox) * c + ch;
            if (grad) {
              out[bestAt] += g[o];
            } else {
              out[o] = best;
            }
          }
        }
      }
    }
    int[] shape = grad ? x.shapeRef() : new int[] {n, oh, ow, c};
    return new NdArray[] {NdArray.fromDoubles(x.dtype(), shape, out)};
  }

  /**
   * The float32 pool (g null) or its gradient, on the arrays directly, channels innermost so that
   * a window's comparisons run over contiguous memory. Each output takes the first maximum of its
   * window in (ky, kx) order, as the float64 path does; the gradient adds onto that position.
   * Images {@code [from, to)}.
   */
  private static void poolFloat(float[] x, float[] g, float[] out, int from, int to, int h, int w,
      int c, int oh, int ow, ConvGeometry geo, boolean vector) {
    if (g != null) {
      java.util.Arrays.fill(out, from * h * w * c, to * h * w * c, 0f);
    }
    // The vector path takes whole vectors of channels; this loop the rest (all, without it).
    int c0 = vector ? VectorPool.pool(x, g, out, from, to, h, w, c, oh, ow, geo) : 0;
    if (c0 == c) {
      return;
    }
    int[] bestAt = new int[c];
    float[] best = new float[c];
    for (int b = from; b < to; b++) {
      for (int oy = 0; oy < oh; oy++) {
        for (int ox = 0; ox < ow; ox++) {
          int first = ((b * h + oy * geo.sh()) * w + ox * geo.sw()) * c;
          System.arraycopy(x, first + c0, best, c0, c - c0);
          java.util.Arrays.fill(bestAt, first);
          for (int ky = 0; ky < geo.kh(); ky++) {
            for (int kx = 0; kx < geo.kw(); kx++) {
              if (ky == 0 && kx == 0) {
                continue;
              }
              int at = ((b * h + oy * geo.sh() + ky) * w + ox * geo.sw() + kx) * c;
              for (int ch = c0; ch < c; ch++) {
                float v = x[at + ch];
                if (v > best[ch]) {
                  best[ch] = v;
                  bestAt[ch] = at;
                }
              }
            }
          }
          int o = ((b * oh + oy) * ow + ox) * c;
          if (g == null) {
            System.arraycopy(best, c0, out, o + c0, c - c0);
          } else {
            for (int ch = c0; ch < c; ch++) {
              out[bestAt[ch] + ch] += g[o + ch];
            }
          }
        }
      }
    }
  }
}
