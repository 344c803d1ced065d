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
   * (oy, ox) holds the window under that output, (ky, kx, ci) flattened; zeros pad. For one ky, the
   * window's entries (kx, ci) that fall inside the image are one contiguous run of the input (NHWC
   * keeps a row's pixels and their channels together), so each (output, ky) is one copy: with one
   * input channel a copy of kw floats, not kw copies of one.
   */
  private static void im2col(Shape s, float[] x, int base, int kFrom, int kTo, float[] cols,
      int at) {
    ConvGeometry g = s.g();
    int cin = s.cin();
    int span = g.kw() * cin;
    int kt = kTo - kFrom;
    int kyFrom = kFrom / span;
    int kyTo = (kTo + span - 1) / span;
    for (int oy = 0; oy < s.oh(); oy++) {
      for (int ox = 0; ox < s.ow(); ox++) {
        // Window entry q of this output lands at cols[row + q].
        int row = at + (oy * s.ow() + ox) * kt - kFrom;
        int ix0 = ox * g.sw() - g.pw();
        int inFrom = Math.max(0, -ix0) * cin;
        int inTo = Math.min(g.kw(), s.w() - ix0) * cin;
        for (int ky = kyFrom; ky < kyTo; ky++) {
          int q0 = ky * span;
          int from = Math.max(kFrom, q0);
          int to = Math.min(kTo, q0 + span);
          int iy = oy * g.sh() - g.ph() + ky;
          int v0 = Math.max(from, q0 + inFrom);
          int v1 = Math.min(to, q0 + inTo);
          if (iy < 0 || iy >= s.h() || v0 >= v1) {
            java.util.Arrays.fill(cols, row + from, row + to, 0f);
            continue;
          }
          zero(cols, row + from, row + v0);
          copy(x, base + (iy * s.w() + ix0) * cin + v0 - q0, cols, row + v0, v1 - v0);
          zero(cols, row + v1, row + to);
        }
      }
    }
  }

  /**
   * The adjoint of im2col: adds each window row back onto the input positions it came from, in the
   * order of the output positions (a window touches each input element at most once), one
   * contiguous run per (output, ky) as in {@link #im2col}.
   */
  private static void col2im(Shape s, float[] cols, int at, float[] dx, int base) {
    ConvGeometry g = s.g();
    int cin = s.cin();
    int span = g.kw() * cin;
    int k = s.window();
    for (int oy = 0; oy < s.oh(); oy++) {
      for (int ox = 0; ox < s.ow(); ox++) {
        int row = at + (oy * s.ow() + ox) * k;
        int ix0 = ox * g.sw() - g.pw();
        int inFrom = Math.max(0, -ix0) * cin;
        int inTo = Math.min(g.kw(), s.w() - ix0) * cin;
        if (inFrom >= inTo) {
          continue;
        }
        for (int ky = 0; ky < g.kh(); ky++) {
          int iy = oy * g.sh() - g.ph() + ky;
          if (iy < 0 || iy >= s.h()) {
            continue;
          }
          int from = row + ky * span + inFrom;
          int to = base + (iy * s.w() + ix0) * cin + inFrom;
          for (int c = 0, e = inTo - inFrom; c < e; c++) {
            dx[to + c] += cols[from + c];
          }
        }
      }
    }
  }

  /** Zeros {@code a[from, to)}, in a loop when short (a call costs more than a few stores). */
  private static void zero(float[] a, int from, int to) {
    for (int i = from; i < to; i++) {
      a[i] = 0f;
    }
  }

  /** {@code System.arraycopy}, in a loop for short runs, where the call is most of the cost. */
  private static void copy(float[] src, int from, float[] dst, int to, int len) {
    if (len >= 32) {
      System.arraycopy(src, from, dst, to, len);
      return;
    }
    for (int i = 0; i < len; i++) {
      dst[to + i] = src[from + i];
    }
  }
}
