package io.tributary.graph.ops;

/**
 * The float32 convolution kernels: im2col into a chunk buffer of a few images, then one matrix
 * product per chunk on the run's {@link GemmKernel}. The images (forward and input gradient) or the
 * filter's rows (filter gradient) are split over the kernel's {@link GemmKernel#threads()}; each
 * thread computes whole elements of the result, so the bits are the same for every thread count.
 *
 * <p>An output element is one chain of fused multiply-adds over the filter window (ky, kx, ci) in
 * ascending order, as in {@link Gemm}; a filter-gradient element is one chain over the batch's
 * output positions in ascending order, continued from chunk to chunk (see {@link Gemm#sgemmAt}). The
 * input gradient adds each window's contributions onto the input in the order of the output
 * positions.
 */
final class ConvFloat {
  /** A chunk's im2col buffer holds about this many floats (256 KiB): it stays in L2. */
  private static final int CHUNK_FLOATS = 1 << 16;

  /** The sizes of one convolution: input [n, h, w, cin], filter [kh, kw, cin, cout]. */
  record Shape(int n, int h, int w, int cin, int cout, int oh, int ow, ConvGeometry g) {
    int positions() {
      return oh * ow;
    }

    int window() {
      return g.kh() * g.kw() * cin;
    }

    int imageIn() {
      return h * w * cin;
    }

    int imageOut() {
      return oh * ow * cout;
    }

    long macs() {
      return (long) n * positions() * window() * cout;
    }
  }

  private ConvFloat() {}

  /** Images per chunk: as many as fit {@link #CHUNK_FLOATS} of im2col rows, at least one. */
  private static int chunk(Shape s, int columns) {
    return Math.max(1, CHUNK_FLOATS / Math.max(1, s.positions() * columns));
  }

  private static int threads(GemmKernel gemm, Shape s) {
    return s.macs() >= Gemm.PARALLEL_MIN_MACS ? gemm.threads() : 1;
  }

  /** out[n, oh, ow, cout] = conv(x, w), every element of out written. */
  static void forward(GemmKernel gemm, Shape s, float[] x, float[] w, float[] out) {
    int p = s.positions();
    int k = s.window();
    int per = chunk(s, k);
    Gemm.Kernel impl = gemm.implementation();
    RowSplit.run(threads(gemm, s), s.n(), 1, 1, (from, to) -> {
      float[] cols = new float[Math.min(per, to - from) * p * k];
      for (int b0 = from; b0 < to; b0 += per) {
        int images = Math.min(per, to - b0);
        for (int i = 0; i < images; i++) {
          im2col(s, x, (b0 + i) * s.imageIn(), 0, k, cols, i * p * k);
        }
        Gemm.sgemmAt(impl, false, false, false, images * p, s.cout(), k, cols, 0, w, out,
            b0 * s.imageOut());
      }
    });
  }

  /** dx[n, h, w, cin] from the output gradient g, every element of dx written. */
  static void inputGrad(GemmKernel gemm, Shape s, float[] g, float[] w, float[] dx) {
    int p = s.positions();
    int k = s.window();
    int per = chunk(s, k);
    Gemm.Kernel impl = gemm.implementation();
    RowSplit.run(threads(gemm, s), s.n(), 1, 1, (from, to) -> {
      java.util.Arrays.fill(dx, from * s.imageIn(), to * s.imageIn(), 0f);
      float[] cols = new float[Math.min(per, to - from) * p * k];
      for (int b0 = from; b0 < to; b0 += per) {
        int images = Math.min(per, to - b0);
        // The window rows' gradients: g (positions x cout) times the filter transposed.
        Gemm.sgemmAt(impl, false, false, true, images * p, k, s.cout(), g, b0 * s.imageOut(), w,
            cols, 0);
        for (int i = 0; i < images; i++) {
          col2im(s, cols, i * p * k, dx, (b0 + i) * s.imageIn());
        }
      }
    });
  }

  /**
   * dw[kh, kw, cin, cout] from the output gradient g, every element written. The filter's rows
   * (window entries) are split over the threads; each computes the transposed block g^T cols for
   * its entries, chunk after chunk, then writes it into dw.
   */
  static void filterGrad(GemmKernel gemm, Shape s, float[] g, float[] x, float[] dw) {
    int p = s.positions();
    int k = s.window();
    int cout = s.cout();
    Gemm.Kernel impl = gemm.implementation();
    RowSplit.run(threads(gemm, s), k, 16, 1, (kFrom, kTo) -> {
      int kt = kTo - kFrom;
      int per = chunk(s, kt);
      float[] cols = new float[Math.min(per, s.n()) * p * kt];
      float[] part = new float[cout * kt];
      for (int b0 = 0; b0 < s.n(); b0 += per) {
        int images = Math.min(per, s.n() - b0);
        for (int i = 0; i < images; i++) {
          im2col(s, x, (b0 + i) * s.imageIn(), kFrom, kTo, cols, i * p * kt);
        }
        Gemm.sgemmAt(impl, b0 > 0, true, false, cout, kt, images * p, g, b0 * s.imageOut(), cols,
            part, 0);
      }
      if (s.n() == 0) {
        java.util.Arrays.fill(part, 0f);
      }
      for (int co = 0; co < cout; co++) {
        for (int j = 0; j < kt; j++) {
          dw[(kFrom + j) * cout + co] = part[co * kt + j];
        }
      }
    });
  }

  /**
   * Columns {@code [kFrom, kTo)} of one image's im2col rows into {@code cols} from {@code at}: row
   * (oy, ox) holds the window under that output, (ky, kx, ci) flattened; zeros pad.
   */
  private static void im2col(Shape s, float[] x, int base, int kFrom, int kTo, float[] cols,
      int at) {
    ConvGeometry g = s.g();
    int cin = s.cin();
    int kt = kTo - kFrom;
    int eFrom = kFrom / cin;
    int eTo = (kTo + cin - 1) / cin;
    for (int oy = 0; oy < s.oh(); oy++) {
      for (int ox = 0; ox < s.ow(); ox++) {
        int row = at + (oy * s.ow() + ox) * kt;
        for (int e = eFrom; e < eTo; e++) {
          int ky = e / g.kw();
          int kx = e - ky * g.kw();
          int c0 = Math.max(kFrom, e * cin);
          int c1 = Math.min(kTo, e * cin + cin);
          int to = row + c0 - kFrom;
          int iy = oy * g.sh() - g.ph() + ky;
          int ix = ox * g.sw() - g.pw() + kx;
          if (iy < 0 || iy >= s.h() || ix < 0 || ix >= s.w()) {
            java.util.Arrays.fill(cols, to, to + c1 - c0, 0f);
          } else {
            System.arraycopy(x, base + (iy * s.w() + ix) * cin + c0 - e * cin, cols, to, c1 - c0);
          }
        }
      }
    }
  }

  /** The adjoint of im2col: adds each window row back onto the input positions it came from. */
  private static void col2im(Shape s, float[] cols, int at, float[] dx, int base) {
    ConvGeometry g = s.g();
    int cin = s.cin();
    int k = s.window();
    for (int oy = 0; oy < s.oh(); oy++) {
      for (int ox = 0; ox < s.ow(); ox++) {
        int row = at + (oy * s.ow() + ox) * k;
        for (int ky = 0; ky < g.kh(); ky++) {
          int iy = oy * g.sh() - g.ph() + ky;
          if (iy < 0 || iy >= s.h()) {
            continue;
          }
          for (int kx = 0; kx < g.kw(); kx++) {
            int ix = ox * g.sw() - g.pw() + kx;
            if (ix < 0 || ix >= s.w()) {
              continue;
            }
            int from = row + (ky * g.kw() + kx) * cin;
            int to = base + (iy * s.w() + ix) * cin;
            for (int c = 0; c < cin; c++) {
              dx[to + c] += cols[from + c];
            }
          }
        }
      }
    }
  }
}
