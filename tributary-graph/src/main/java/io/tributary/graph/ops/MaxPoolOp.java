package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import java.util.List;

/**
 * {@code max_pool(x; kernel_h, kernel_w, stride_h, stride_w)} over NHWC input with no padding (the
 * strides default to the kernel), and {@code max_pool_grad(g, x)}, which routes each gradient to the
 * first maximum of its window.
 */
final class MaxPoolOp extends BaseOp {
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
}
