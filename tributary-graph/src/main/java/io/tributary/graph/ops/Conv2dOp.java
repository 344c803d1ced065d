package io.tributary.graph.ops;

import io.tributary.graph.Op;
import io.tributary.graph.PartialShape;
import io.tributary.tensor.DType;
import java.util.List;

/**
 * 2-D convolution of NHWC input x with an HWIO filter w ({@code conv2d(x, w)}), and its gradients
 * {@code conv2d_input_grad(g, x, w)} and {@code conv2d_filter_grad(g, x, w)}. float32 in float32
 * as one product over the batch that reads the windows in place, split over the run's kernel's
 * threads ({@link ConvFloat}), into the buffer of the previous step when it fits and with its
 * work buffers kept in two slots after the output ({@link #workspaces()}); float64 in float64, as
 * im2col followed by a matrix product per image.
 */
final class Conv2dOp extends BaseOp {
  enum Kind {
    FORWARD, INPUT_GRAD, FILTER_GRAD
  }

  private final Kind kind;

  Conv2dOp(String type, Kind kind) {
    super(type, kind == Kind.FORWARD ? 2 : 3);
    this.kind = kind;
  }

  /** The bordered input (or spread gradient) and the rearranged filter of {@link ConvFloat}. */
  @Override
  int workspaces() {
    return 2;
  }

  @Override
  public List<ValueType> infer(Op op, List<ValueType> in) throws OpInferenceException {
    int o = kind == Kind.FORWARD ? 0 : 1;
    ValueType x = in.get(o);
    ValueType w = in.get(o + 1);
    Infer.requireFloat(x, "input");
    Infer.requireSameDType(x, w, "input and filter differ in dtype");
    Infer.requireRank(x, 4, "input (NHWC)");
    Infer.requireRank(w, 4, "filter (HWIO)");
    PartialShape xs = x.shape();
    PartialShape ws = w.shape();
    if (ws.dim(0) < 0 || ws.dim(1) < 0) {
      throw OpInferenceException.shape("filter " + ws + " must have known height and width");
    }
    if (!Infer.dimsAgree(xs.dim(3), ws.dim(2))) {
      throw OpInferenceException.shape("input channels " + xs + " do not match filter " + ws);
    }
    ConvGeometry geo = ConvGeometry.conv(op, (int) ws.dim(0), (int) ws.dim(1));
    long oh = geo.outH(xs.dim(1));
    long ow = geo.outW(xs.dim(2));
    if (oh == -2 || ow == -2) {
      throw OpInferenceException.shape("filter " + ws + " does not fit input " + xs);
    }
    PartialShape out = PartialShape.of(xs.dim(0), oh, ow, ws.dim(3));
    if (kind == Kind.FORWARD) {
      return List.of(new ValueType(x.dtype(), out));
    }
    Infer.requireSameDType(in.get(0), x, "gradient differs in dtype");
    if (!in.get(0).shape().compatibleWith(out)) {
      throw OpInferenceException.shape("gradient " + in.get(0).shape() + " does not match output " + out);
    }
    return List.of(kind == Kind.INPUT_GRAD ? x : w);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in) {
    return compute(op, in, null, GemmKernel.DEFAULT);
  }

  @Override
  public NdArray[] compute(Op op, NdArray[] in, NdArray[] previous, GemmKernel gemm) {
    int o = kind == Kind.FORWARD ? 0 : 1;
    NdArray x = in[o];
    NdArray w = in[o + 1];
    if (x.rank() != 4 || w.rank() != 4 || x.dim(3) != w.dim(2)) {
      throw new IllegalArgumentException("conv2d needs NHWC input and HWIO filter with matching "
          + "channels, got " + NdArray.describe(List.of(x, w)));
    }
    int n = x.dim(0);
    int h = x.dim(1);
    int wd = x.dim(2);
    int cin = x.dim(3);
    int cout = w.dim(3);
    ConvGeometry geo = ConvGeometry.convAtRuntime(op, w.dim(0), w.dim(1));
    int oh = (int) geo.outH(h);
    int ow = (int) geo.outW(wd);
    if (oh < 1 || ow < 1) {
      throw new IllegalArgumentException("filter " + w + " does not fit input " + x);
    }
    if (x.dtype() == DType.FLOAT32 && w.dtype() == DType.FLOAT32
        && (kind == Kind.FORWARD || in[0].dtype() == DType.FLOAT32)) {
      return computeFloat(in, null, previous, gemm,
          new ConvFloat.Shape(n, h, wd, cin, cout, oh, ow, geo));
    }
    int p = oh * ow;
    int k = geo.kh() * geo.kw() * cin;
    double[] xd = x.asDoubles();
    double[] wdat = w.asDoubles();
    double[] cols = new double[p * k];
    int imgIn = h * wd * cin;
    int imgOut = p * cout;
    double[] g = kind == Kind.FORWARD ? null : in[0].asDoubles();
    if (g != null && g.length != n * imgOut) {
      throw new IllegalArgumentException("gradient " + in[0] + " does not match the output");
    }
    switch (kind) {
      case FORWARD -> {
        double[] out = new double[n * imgOut];
        double[] tile = new double[imgOut];
        for (int b = 0; b < n; b++) {
          im2col(xd, b * imgIn, h, wd, cin, oh, ow, geo, cols);
          Gemm.dgemm(gemm, false, false, p, cout, k, cols, wdat, tile);
          System.arraycopy(tile, 0, out, b * imgOut, imgOut);
        }
        return new NdArray[] {NdArray.fromDoubles(x.dtype(), new int[] {n, oh, ow, cout}, out)};
      }
      case INPUT_GRAD -> {
        double[] dx = new double[xd.length];
        double[] gb = new double[imgOut];
        for (int b = 0; b < n; b++) {
          System.arraycopy(g, b * imgOut, gb, 0, imgOut);
          Gemm.dgemm(gemm, false, true, p, k, cout, gb, wdat, cols);
          col2im(cols, dx, b * imgIn, h, wd, cin, oh, ow, geo);
        }
        return new NdArray[] {NdArray.fromDoubles(x.dtype(), x.shapeRef(), dx)};
      }
      default -> {
        double[] dw = new double[wdat.length];
        double[] part = new double[wdat.length];
        double[] gb = new double[imgOut];
        for (int b = 0; b < n; b++) {
          im2col(xd, b * imgIn, h, wd, cin, oh, ow, geo, cols);
          System.arraycopy(g, b * imgOut, gb, 0, imgOut);
          Gemm.dgemm(gemm, true, false, k, cout, p, cols, gb, part);
          for (int i = 0; i < dw.length; i++) {
            dw[i] += part[i];
          }
        }
        return new NdArray[] {NdArray.fromDoubles(w.dtype(), w.shapeRef(), dw)};
      }
    }
  }

  /**
   * {@code relu(add(conv2d(x, w), bias))} in one pass over the output ({@link
   * Fusions#CONV_BIAS_RELU}): float32 x, w and bias, the bias one value per output channel, with
   * the bits of the three ops one after the other; null for any other input, which the caller then
   * computes op by op. Only on a forward op.
   *
   * @throws IllegalArgumentException as {@link #compute(Op, NdArray[], NdArray[], GemmKernel)}
   */
  NdArray[] computeBiasRelu(Op op, NdArray x, NdArray w, NdArray bias, NdArray[] previous,
      GemmKernel gemm) {
    if (kind != Kind.FORWARD || x.dtype() != DType.FLOAT32 || w.dtype() != DType.FLOAT32
        || bias.dtype() != DType.FLOAT32 || x.rank() != 4 || w.rank() != 4 || bias.rank() != 1
        || bias.dim(0) != w.dim(3) || x.dim(3) != w.dim(2)) {
      return null;
    }
    ConvGeometry geo = ConvGeometry.convAtRuntime(op, w.dim(0), w.dim(1));
    int oh = (int) geo.outH(x.dim(1));
    int ow = (int) geo.outW(x.dim(2));
    if (oh < 1 || ow < 1) {
      throw new IllegalArgumentException("filter " + w + " does not fit input " + x);
    }
    return computeFloat(new NdArray[] {x, w}, bias.floats(), previous, gemm, new ConvFloat.Shape(
        x.dim(0), x.dim(1), x.dim(2), x.dim(3), w.dim(3), oh, ow, geo));
  }

  /**
   * float32: {@link ConvFloat}, into the buffer this op returned last time when it fits, with the
   * work buffers kept in {@code previous} after the output when the caller offers the slots; a
   * forward pass with a {@code bias} (else null) adds it and applies ReLU.
   */
  private NdArray[] computeFloat(NdArray[] in, float[] bias, NdArray[] previous, GemmKernel gemm,
      ConvFloat.Shape s) {
    int o = kind == Kind.FORWARD ? 0 : 1;
    NdArray x = in[o];
    NdArray w = in[o + 1];
    NdArray reuse = NdArray.previous(previous, 0);
    ConvFloat.Workspace ws = new ConvFloat.Workspace();
    ws.padded = floats(previous, 1);
    ws.filter = floats(previous, 2);
    NdArray out;
    switch (kind) {
      case FORWARD -> {
        out = NdArray.reuseOrZeros(reuse, DType.FLOAT32,
            new int[] {s.n(), s.oh(), s.ow(), s.cout()});
        ConvFloat.forward(gemm, s, x.floats(), w.floats(), bias, out.floats(), ws);
      }
      case INPUT_GRAD -> {
        float[] g = gradient(in[0], s);
        out = NdArray.reuseOrZeros(reuse, DType.FLOAT32, x.shape());
        ConvFloat.inputGrad(gemm, s, g, w.floats(), out.floats(), ws);
      }
      default -> {
        float[] g = gradient(in[0], s);
        out = NdArray.reuseOrZeros(reuse, DType.FLOAT32, w.shape());
        ConvFloat.filterGrad(gemm, s, g, x.floats(), out.floats(), ws);
      }
    }
    keep(previous, 1, ws.padded);
    keep(previous, 2, ws.filter);
    return new NdArray[] {out};
  }

  /** The work buffer kept in slot {@code index} of {@code previous}, or null. */
  private static float[] floats(NdArray[] previous, int index) {
    NdArray a = NdArray.previous(previous, index);
    return a == null ? null : a.floats();
  }

  /** Keeps {@code buffer} in slot {@code index} of {@code previous} when there is that slot. */
  private static void keep(NdArray[] previous, int index, float[] buffer) {
    if (buffer != null && previous != null && index < previous.length
        && (previous[index] == null || previous[index].floats() != buffer)) {
      previous[index] = NdArray.wrapFloats(new int[] {buffer.length}, buffer);
    }
  }

  private static float[] gradient(NdArray g, ConvFloat.Shape s) {
    if (g.size() != s.n() * s.imageOut()) {
      throw new IllegalArgumentException("gradient " + g + " does not match the output");
    }
    return g.floats();
  }

  /** Row (oy, ox) of cols holds the window under that output, (ky, kx, ci) flattened; zeros pad. */
  private static void im2col(double[] x, int base, int h, int w, int cin, int oh, int ow,
      ConvGeometry g, double[] cols) {
    int k = g.kh() * g.kw() * cin;
    for (int oy = 0; oy < oh; oy++) {
      for (int ox = 0; ox < ow; ox++) {
        int row = (oy * ow + ox) * k;
        for (int ky = 0; ky < g.kh(); ky++) {
          int iy = oy * g.sh() - g.ph() + ky;
          for (int kx = 0; kx < g.kw(); kx++) {
            int ix = ox * g.sw() - g.pw() + kx;
            int at = row + (ky * g.kw() + kx) * cin;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) {
              java.util.Arrays.fill(cols, at, at + cin, 0.0);
            } else {
              System.arraycopy(x, base + (iy * w + ix) * cin, cols, at, cin);
            }
          }
        }
      }
    }
  }

  /** The adjoint of im2col: adds each window row back onto the input positions it came from. */
  private static void col2im(double[] cols, double[] dx, int base, int h, int w, int cin, int oh,
      int ow, ConvGeometry g) {
    int k = g.kh() * g.kw() * cin;
    for (int oy = 0; oy < oh; oy++) {
      for (int ox = 0; ox < ow; ox++) {
        int row = (oy * ow + ox) * k;
        for (int ky = 0; ky < g.kh(); ky++) {
          int iy = oy * g.sh() - g.ph() + ky;
          if (iy < 0 || iy >= h) {
            continue;
          }
          for (int kx = 0; kx < g.kw(); kx++) {
            int ix = ox * g.sw() - g.pw() + kx;
            if (ix < 0 || ix >= w) {
              continue;
            }
            int at = row + (ky * g.kw() + kx) * cin;
            int to = base + (iy * w + ix) * cin;
            for (int c = 0; c < cin; c++) {
              dx[to + c] += cols[at + c];
            }
          }
        }
      }
    }
  }
}
