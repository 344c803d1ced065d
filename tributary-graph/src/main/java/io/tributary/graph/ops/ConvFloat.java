package io.tributary.graph.ops;

/**
 * The float32 convolution kernels, each one {@link WindowGemm} over the batch: the input (or the
 * output gradient) is copied once into a zero-bordered buffer, and the product reads its windows
 * there in place, with the filter (forward), the output gradient (filter gradient) or the filter
 * rearranged once per call (input gradient) as B. The work is split over the kernel's {@link
 * GemmKernel#threads()} by images (forward, input gradient) or by filter rows (filter gradient);
 * each thread computes whole elements, so the bits are the same for every thread count, and the
 * same on the Vector API and in plain loops.
 *
 * <p>The arithmetic, which the tests pin against a straightforward loop: an output element is one
 * chain of fused multiply-adds over its window (ky, kx, ci) in ascending order, from zero, padding
 * included as zeros; a filter-gradient element is one chain over the batch's output positions in
 * ascending order, padding included; an input-gradient element is one chain over (ky, kx, co) in
 * ascending order of {@code g[oy, ox, co] * w[ky, kx, ci, co]}, where (oy, ox) is the output whose
 * window puts (ky, kx) on this input, or of zero where no output does.
 *
 * <p>The buffers (the bordered copy, the rearranged filter) live in a {@link Workspace} that the
 * caller keeps from step to step, so a training loop does not allocate them again.
 */
final class ConvFloat {
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

    /** Height of the zero-bordered input (an ArithmeticException past an int, named by the op). */
    int ph() {
      return Math.addExact(h, Math.multiplyExact(2, g.ph()));
    }

    /** Width of the zero-bordered input. */
    int pw() {
      return Math.addExact(w, Math.multiplyExact(2, g.pw()));
    }

    /** Height of the output gradient spread over the input grid (see {@link #inputGrad}). */
    int gh() {
      return Math.addExact(h, g.kh() - 1);
    }

    int gw() {
      return Math.addExact(w, g.kw() - 1);
    }
  }

  /**
   * The buffers of one convolution op, kept by its caller between steps: {@code padded} (the
   * bordered input or spread output gradient) and {@code filter} (the rearranged filter), each
   * replaced only when a call needs more (an epoch's smaller last batch uses the front).
   */
  static final class Workspace {
    float[] padded;
    float[] filter;

    float[] padded(int size) {
      if (padded == null || padded.length < size) {
        padded = new float[size];
      }
      return padded;
    }

    float[] filter(int size) {
      if (filter == null || filter.length < size) {
        filter = new float[size];
      }
      return filter;
    }
  }

  private ConvFloat() {}

  private static int threads(GemmKernel gemm, Shape s) {
    return s.macs() >= Gemm.PARALLEL_MIN_MACS ? gemm.threads() : 1;
  }

  /**
   * Whether the products run on the Vector API: on its kernel, and on OpenBLAS's when its module is
   * present (a convolution never calls OpenBLAS, so it has the Java kernels' bits there too).
   */
  private static boolean vector(GemmKernel gemm) {
    return switch (gemm.implementation()) {
      case VECTOR -> {
        gemm.requireAvailable();
        yield true;
      }
      case PORTABLE -> false;
      case OPENBLAS -> Gemm.isAvailable(Gemm.Kernel.VECTOR);
    };
  }

  /** out[n, oh, ow, cout] = conv(x, w), every element of out written. */
  static void forward(GemmKernel gemm, Shape s, float[] x, float[] w, float[] out,
      Workspace ws) {
    forward(gemm, s, x, w, null, out, ws);
  }

  /**
   * out[n, oh, ow, cout] = conv(x, w), or, when {@code bias} (cout floats) is not null, {@code
   * relu(conv(x, w) + bias)} with the arithmetic of {@code relu(add(y, bias))}: each finished
   * element y becomes {@code Math.max(y + bias[co], 0f)}, done on each block of rows while it is
   * still in cache, by the thread that computed it (on the Vector API by {@link VectorBiasRelu},
   * the same bits).
   */
  static void forward(GemmKernel gemm, Shape s, float[] x, float[] w, float[] bias, float[] out,
      Workspace ws) {
    float[] xp = ws.padded(floats("bordered input", s.n(), s.ph(), s.pw(), s.cin()));
    boolean vector = vector(gemm);
    int p = s.positions();
    int cout = s.cout();
    WindowGemm.Finish finish = bias == null ? null : vector
        ? (from, count) -> VectorBiasRelu.apply(out, from * cout, (from + count) * cout, bias)
        : (from, count) -> biasRelu(out, from * cout, (from + count) * cout, bias);
    // Each thread borders its own images, then computes their outputs: one fork per call.
    RowSplit.run(threads(gemm, s), s.n(), 1, 1, (from, to) -> {
      pad(s, x, xp, from, to);
      WindowGemm.multiply(vector, xp, (into, i, count) -> positions(s, into, i, count), from * p,
          to * p, (into, k, count) -> windowEntries(s, into, k, count), s.window(), w, cout,
          out, cout, cout, finish, WindowGemm.B_BLOCK_FLOATS);
    });
  }

  /** {@code out[i] = max(out[i] + bias[i mod width], 0)} for {@code i} in [from, to). */
  static void biasRelu(float[] out, int from, int to, float[] bias) {
    int width = bias.length;
    for (int row = from; row < to; row += width) {
      for (int j = 0; j < width; j++) {
        out[row + j] = Math.max(out[row + j] + bias[j], 0f);
      }
    }
  }

  /**
   * dw[kh, kw, cin, cout] from the output gradient g, every element written: rows are the
   * window entries, k the batch's output positions, B the output gradient.
   */
  static void filterGrad(GemmKernel gemm, Shape s, float[] g, float[] x, float[] dw,
      Workspace ws) {
    float[] xp = ws.padded(floats("bordered input", s.n(), s.ph(), s.pw(), s.cin()));
    boolean vector = vector(gemm);
    int t = threads(gemm, s);
    RowSplit.run(t, s.n(), 1, 1, (from, to) -> pad(s, x, xp, from, to));
    RowSplit.run(t, s.window(), 8, 8, (from, to) ->
        WindowGemm.multiply(vector, xp, (into, i, count) -> windowEntries(s, into, i, count), from,
            to, (into, k, count) -> positions(s, into, k, count), s.n() * s.positions(), g,
            s.cout(), dw, s.cout(), s.cout(), null, WindowGemm.B_BLOCK_FLOATS_STRIDED_A));
  }

  /**
   * dx[n, h, w, cin] from the output gradient g, every element written. The output gradient is
   * spread over the input's grid, bordered by the filter's size less one ({@link #spread}), so that
   * the input position (iy, ix) meets, for the filter entry (ky, kx), the output gradient at
   * (iy + kh-1 - ky, ix + kw-1 - kx) of that grid, or a zero where no output's window puts (ky, kx)
   * on it. Then rows are the input positions, k the entries (ky, kx, co), and B the filter with
   * its two channel axes swapped.
   */
  static void inputGrad(GemmKernel gemm, Shape s, float[] g, float[] w, float[] dx,
      Workspace ws) {
    float[] gp = ws.padded(floats("spread output gradient", s.n(), s.gh(), s.gw(), s.cout()));
    float[] wt = ws.filter(w.length);
    int taps = s.g().kh() * s.g().kw();
    int cin = s.cin();
    int cout = s.cout();
    for (int tap = 0; tap < taps; tap++) {
      int base = tap * cin * cout;
      for (int ci = 0; ci < cin; ci++) {
        for (int co = 0; co < cout; co++) {
          wt[base + co * cin + ci] = w[base + ci * cout + co];
        }
      }
    }
    boolean vector = vector(gemm);
    int hw = s.h() * s.w();
    RowSplit.run(threads(gemm, s), s.n(), 1, 1, (from, to) -> {
      spread(s, g, gp, from, to);
      WindowGemm.multiply(vector, gp, (into, i, count) -> inputPositions(s, into, i, count),
          from * hw, to * hw, (into, k, count) -> flippedEntries(s, into, k, count),
          taps * cout, wt, cin, dx, cin, cin);
    });
  }

  /**
   * The size of a work buffer of these dimensions, checked before it is allocated.
   *
   * @throws IllegalArgumentException when it would not fit an array
   */
  private static int floats(String what, int n, int h, int w, int c) {
    long size = (long) n * h * w * c;
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the convolution's " + what + " [" + n + ", " + h + ", "
          + w + ", " + c + "] has more elements than an array can hold");
    }
    return (int) size;
  }

  /** Images {@code [from, to)} of x into the bordered buffer, borders zeroed. */
  private static void pad(Shape s, float[] x, float[] xp, int from, int to) {
    int cin = s.cin();
    int row = s.w() * cin;
    int prow = s.pw() * cin;
    int top = s.g().ph();
    int left = s.g().pw() * cin;
    for (int b = from; b < to; b++) {
      int image = b * s.ph() * prow;
      java.util.Arrays.fill(xp, image, image + top * prow, 0f);
      for (int y = 0; y < s.h(); y++) {
        int at = image + (top + y) * prow;
        java.util.Arrays.fill(xp, at, at + left, 0f);
        System.arraycopy(x, (b * s.h() + y) * row, xp, at + left, row);
        java.util.Arrays.fill(xp, at + left + row, at + prow, 0f);
      }
      java.util.Arrays.fill(xp, image + (top + s.h()) * prow, image + s.ph() * prow, 0f);
    }
  }

  /**
   * Images {@code [from, to)} of the output gradient onto the input grid ({@link #inputGrad}):
   * output (oy, ox) at (oy*sh + kh-1 - ph, ox*sw + kw-1 - pw), where it is inside the grid (an
   * output outside it has a window that covers no input); zeros everywhere else.
   */
  private static void spread(Shape s, float[] g, float[] gp, int from, int to) {
    ConvGeometry geo = s.g();
    int cout = s.cout();
    int image = s.gh() * s.gw() * cout;
    java.util.Arrays.fill(gp, from * image, to * image, 0f);
    for (int b = from; b < to; b++) {
      for (int oy = 0; oy < s.oh(); oy++) {
        int y = oy * geo.sh() + geo.kh() - 1 - geo.ph();
        if (y < 0 || y >= s.gh()) {
          continue;
        }
        for (int ox = 0; ox < s.ow(); ox++) {
          int x = ox * geo.sw() + geo.kw() - 1 - geo.pw();
          if (x < 0 || x >= s.gw()) {
            continue;
          }
          System.arraycopy(g, ((b * s.oh() + oy) * s.ow() + ox) * cout, gp,
              b * image + (y * s.gw() + x) * cout, cout);
        }
      }
    }
  }

  /**
   * Where output positions {@code [from, from+count)} of the batch start in the bordered input.
   * The four fillers divide once and then step, as they run for every block of the product.
   */
  private static void positions(Shape s, int[] into, int from, int count) {
    int p = s.positions();
    int ow = s.ow();
    ConvGeometry geo = s.g();
    int image = s.ph() * s.pw() * s.cin();
    int rowStep = geo.sh() * s.pw() * s.cin();
    int colStep = geo.sw() * s.cin();
    int b = from / p;
    int oy = from % p / ow;
    int ox = from % ow;
    int at = b * image + oy * rowStep + ox * colStep;
    for (int t = 0; t < count; t++) {
      into[t] = at;
      at += colStep;
      if (++ox == ow) {
        ox = 0;
        if (++oy == s.oh()) {
          oy = 0;
          b++;
        }
        at = b * image + oy * rowStep;
      }
    }
  }

  /** Where window entries (ky, kx, ci) {@code [from, from+count)} lie from a window's start. */
  private static void windowEntries(Shape s, int[] into, int from, int count) {
    int span = s.g().kw() * s.cin();
    int row = s.pw() * s.cin();
    int ky = from / span;
    int e = from % span;
    for (int t = 0; t < count; t++) {
      into[t] = ky * row + e;
      if (++e == span) {
        e = 0;
        ky++;
      }
    }
  }

  /** Where input positions {@code [from, from+count)} of the batch lie on the spread grid. */
  private static void inputPositions(Shape s, int[] into, int from, int count) {
    int hw = s.h() * s.w();
    int cout = s.cout();
    int image = s.gh() * s.gw() * cout;
    int b = from / hw;
    int iy = from % hw / s.w();
    int ix = from % s.w();
    for (int t = 0; t < count; t++) {
      into[t] = b * image + (iy * s.gw() + ix) * cout;
      if (++ix == s.w()) {
        ix = 0;
        if (++iy == s.h()) {
          iy = 0;
          b++;
        }
      }
    }
  }

  /** Where entries (ky, kx, co) {@code [from, from+count)} meet an input on the spread grid. */
  private static void flippedEntries(Shape s, int[] into, int from, int count) {
    int cout = s.cout();
    int kh = s.g().kh();
    int kw = s.g().kw();
    int tap = from / cout;
    int co = from % cout;
    int ky = tap / kw;
    int kx = tap % kw;
    for (int t = 0; t < count; t++) {
      into[t] = ((kh - 1 - ky) * s.gw() + (kw - 1 - kx)) * cout + co;
      if (++co == cout) {
        co = 0;
        if (++kx == kw) {
          kx = 0;
          ky++;
        }
      }
    }
  }
}
