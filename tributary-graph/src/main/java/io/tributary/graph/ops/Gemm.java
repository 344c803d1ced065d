package io.tributary.graph.ops;

/**
 * Dense matrix products {@code C = op(A) op(B)} on row-major arrays, where op transposes or not.
 *
 * <p>Three implementations can run a product (see {@link Kernel}); which one a run uses is a
 * {@link GemmKernel} it passes in (the graph executor's). The methods without one use {@link
 * GemmKernel#DEFAULT}, the Java kernels, which give the same bits however the JVM was started:
 * each float32 element of C is one chain of fused multiply-adds over k in ascending order,
 * starting from zero, on the Vector API where {@code jdk.incubator.vector} is present ({@link
 * Kernel#VECTOR}, with {@link NarrowGemm} for products of 8 to 16 columns) and in plain loops
 * otherwise ({@link Kernel#PORTABLE}). OpenBLAS sums in its own order, so its results differ in
 * the last digits: it runs only when a run passes {@link GemmKernel#OPENBLAS}. No system property
 * chooses a kernel here.
 */
public final class Gemm {
  /**
   * Whether threads on the Vector API kernel split a product's columns rather than its rows: for
   * a product of few rows (a batch times a layer's weights), where each thread of a row split
   * would pack and stream all of B while computing a few rows.
   */
  static boolean splitsColumns(int m, int n) {
    return m <= SPLIT_COLUMNS_MAX_ROWS && n >= 4 * VectorGemm.columnAlign();
  }

  /** The implementations of a product. */
  public enum Kernel {
    /**
     * OpenBLAS ({@code cblas_sgemm}, {@code cblas_dgemm}) through JNI, held to one thread; used
     * only when a run passes {@link GemmKernel#OPENBLAS}, since it sums in another order than the
     * Java kernels. Available when the {@code
     * org.bytedeco:openblas} natives for this platform are on the class path (tributary-graph
     * brings them for Linux x86-64) and, on JDK 22 and newer, native access is enabled for
     * tributary-graph's module ({@code --enable-native-access=ALL-UNNAMED} on the class path, or
     * {@code Enable-Native-Access: ALL-UNNAMED} in an executable jar's manifest). The natives are
     * loaded on the first question about this kernel, never without native access, so the JVM
     * prints no native-access warning.
     */
    OPENBLAS,
    /**
     * A packed, register-blocked float32 kernel on the Vector API; available when the {@code
     * jdk.incubator.vector} module is present ({@code --add-modules jdk.incubator.vector}). Its
     * results are bit-identical to {@link #PORTABLE}'s. float64 products use the portable loop.
     */
    VECTOR,
    /** Plain Java loops, always available. */
    PORTABLE
  }

  private static final boolean VECTOR_PRESENT = ModuleLayer.boot()
      .findModule("jdk.incubator.vector").isPresent();
  /**
   * Calls of each narrow kernel layout that {@link #warmUp} runs: enough to trip C2's compile
   * thresholds for the kernel's loops (C2's code is in place about 1.6 s after launch either way);
   * 20,000 cost more CPU at start-up than they saved (4 of 4 alternating runs of the FedProx
   * protocol slower).
   */
  private static final int WARM_UP_CALLS = 4_000;

  /** Products of fewer multiply-adds stay on one thread: a fork costs more than they would save. */
  static final long PARALLEL_MIN_MACS = 1L << 19;
  /** Below this many columns the portable loop computes a tall product as its transpose. */
  static final int NARROW_COLUMNS = 128;
  /** Rows of a product the full BLAS form computes at a time before combining them into C. */
  private static final int SCALED_BLOCK_ROWS = 64;
  /** Products of at most this many rows are split over threads by columns (see splitsColumns). */
  static final int SPLIT_COLUMNS_MAX_ROWS = 64;
  /**
   * Products with fewer rows than this, or fewer steps of k, run on the portable loop without
   * copying B or C ({@link #direct}).
   */
  static final int DIRECT_MAX = 4;
  /** The fewest rows of C a thread is given. */
  static final int PARALLEL_MIN_ROWS = 8;

  private Gemm() {}

  /**
   * Why OpenBLAS could not be loaded, or null when it was; a holder of its own, so that a JVM which
   * never asks about OpenBLAS never loads its natives (about 0.3 s).
   */
  private static final class OpenBlasStatus {
    static final String PROBLEM = loadOpenBlas();
  }

  private static String loadOpenBlas() {
    if (!nativeAccessEnabled()) {
      // Loading a library or making a downcall would make JDK 24+ print a warning on stderr
      // (JDK 22+ for downcalls), which a library must not cause: run the Java kernels instead.
      return "native access is not enabled for " + describe(Gemm.class.getModule())
          + " (add --enable-native-access=" + nativeAccessName(Gemm.class.getModule()) + ")";
    }
    try {
      OpenBlasGemm.ensureLoaded();
      return null;
    } catch (LinkageError e) {
      // Missing classes, missing natives for this platform, or a failed initializer all mean the
      // same thing here: run the Java kernels instead.
      return e.toString();
    }
  }

  /**
   * Whether this class's module may use native code without a warning: always before JDK 22,
   * where {@code Module.isNativeAccessEnabled} does not exist and neither JNI nor the preview
   * foreign API warns; its answer on 22 and newer.
   */
  private static boolean nativeAccessEnabled() {
    try {
      return (Boolean) Module.class.getMethod("isNativeAccessEnabled")
          .invoke(Gemm.class.getModule());
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  private static String describe(Module module) {
    return module.isNamed() ? "module " + module.getName() : "the class path (unnamed module)";
  }

  private static String nativeAccessName(Module module) {
    return module.isNamed() ? module.getName() : "ALL-UNNAMED";
  }

  /**
   * The implementation that products without a kernel run on: {@link GemmKernel#DEFAULT}'s.
   *
   * @deprecated a run's kernel is a {@link GemmKernel} it passes to the graph executor; use
   *     {@link GemmKernel#implementation()} of that value. No system property changes this one.
   */
  @Deprecated
  public static Kernel kernel() {
    return GemmKernel.DEFAULT.implementation();
  }

  /**
   * The arithmetic that products without a kernel get, as a run would record it: {@code "java"}.
   *
   * @deprecated a run records {@link GemmKernel#name()} of the kernel it passes to the graph
   *     executor; no system property changes this one.
   */
  @Deprecated
  public static String kernelName() {
    return GemmKernel.DEFAULT.name();
  }

  /**
   * Whether float32 products of 8 to 16 columns (B not transposed) without a kernel run on the
   * Vector API's narrow kernel: {@link GemmKernel#narrowOnVector()} of {@link
   * GemmKernel#DEFAULT}. Its results are the same bits as the other Java kernels'.
   */
  public static boolean narrowOnVector() {
    return GemmKernel.DEFAULT.narrowOnVector();
  }

  /**
   * Prepares {@code kernel} so that training does not wait for it: runs the narrow kernel on
   * throwaway data, so the JIT has compiled it by the time training reaches it (about 0.1 s of one
   * core), or loads OpenBLAS (about 0.3 s). Called by {@link KernelWarmUp} on a thread of its own,
   * which also makes that thread, not the caller's, pay for this class's initialization.
   */
  static void warmUp(GemmKernel kernel) {
    if (kernel.narrowOnVector()) {
      NarrowGemm.warmUp(WARM_UP_CALLS);
    } else if (kernel.implementation() == Kernel.OPENBLAS) {
      kernel.isAvailable();
    }
  }

  /** True when {@code kernel} can run in this JVM. */
  public static boolean isAvailable(Kernel kernel) {
    return switch (kernel) {
      case OPENBLAS -> OpenBlasStatus.PROBLEM == null;
      case VECTOR -> VECTOR_PRESENT;
      case PORTABLE -> true;
    };
  }

  /** Why {@code kernel} is not available, or empty when it is. */
  public static java.util.Optional<String> unavailableReason(Kernel kernel) {
    if (isAvailable(kernel)) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(kernel == Kernel.OPENBLAS
        ? "OpenBLAS was not loaded: " + OpenBlasStatus.PROBLEM
        : "the jdk.incubator.vector module is not present (add --add-modules jdk.incubator.vector)");
  }

  private static void requireAvailable(Kernel kernel) {
    java.util.Optional<String> why = unavailableReason(kernel);
    if (why.isPresent()) {
      throw new IllegalStateException("gemm kernel " + kernel + " is not available: " + why.get());
    }
  }

  /**
   * {@code c = op(a) op(b)}, with op(a) of shape [m, k] and op(b) of shape [k, n]; {@code c} is
   * overwritten. With {@code ta}, {@code a} holds [k, m]; with {@code tb}, {@code b} holds [n, k].
   */
  public static void sgemm(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b,
      float[] c) {
    sgemm(GemmKernel.DEFAULT, ta, tb, m, n, k, a, b, c);
  }

  /**
   * As {@link #sgemm(boolean, boolean, int, int, int, float[], float[], float[])} with {@code
   * kernel}, the narrow kernel included where {@code kernel} runs it.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void sgemm(GemmKernel kernel, boolean ta, boolean tb, int m, int n, int k,
      float[] a, float[] b, float[] c) {
    if (!ranNarrow(kernel, ta, tb, m, n, k, 1f, a, b, 0f, c)) {
      sgemm(kernel.implementation(), kernel.threads(), ta, tb, m, n, k, a, b, c);
    }
  }

  /**
   * As {@link #sgemm(boolean, boolean, int, int, int, float[], float[], float[])} on the given
   * kernel.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void sgemm(Kernel kernel, boolean ta, boolean tb, int m, int n, int k, float[] a,
      float[] b, float[] c) {
    sgemm(kernel, 1, ta, tb, m, n, k, a, b, c);
  }

  /**
   * As {@link #sgemm(Kernel, boolean, boolean, int, int, int, float[], float[], float[])}, with the
   * rows of C split over up to {@code threads} threads when the product is large enough to gain
   * ({@link #PARALLEL_MIN_MACS}); the Java kernels compute each element as one thread would.
   */
  static void sgemm(Kernel kernel, int threads, boolean ta, boolean tb, int m, int n, int k,
      float[] a, float[] b, float[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    requireAvailable(kernel);
    int t = (long) m * n * k >= PARALLEL_MIN_MACS ? threads : 1;
    switch (kernel) {
      case OPENBLAS -> OpenBlasGemm.sgemm(ta, tb, m, n, k, a, b, c);
      case VECTOR -> {
        if (t > 1 && splitsColumns(m, n)) {
          int align = VectorGemm.columnAlign();
          RowSplit.run(t, n, 2 * align, align, (from, to) ->
              VectorGemm.multiplyColumns(ta, tb, m, n, k, a, b, c, from, to, false, 1f, 0f));
        } else {
          RowSplit.run(t, m, PARALLEL_MIN_ROWS, VectorGemm.rowAlign(),
              (from, to) -> VectorGemm.multiply(ta, tb, m, n, k, a, b, c, from, to));
        }
      }
      case PORTABLE -> portable(t, false, ta, tb, m, n, k, a, 0, b, c, 0, 1f, 0f, false);
    }
  }

  /** As {@link #sgemm(boolean, boolean, int, int, int, float[], float[], float[])} for float64. */
  public static void dgemm(boolean ta, boolean tb, int m, int n, int k, double[] a, double[] b,
      double[] c) {
    dgemm(GemmKernel.DEFAULT, ta, tb, m, n, k, a, b, c);
  }

  /**
   * As {@link #dgemm(boolean, boolean, int, int, int, double[], double[], double[])} with {@code
   * kernel}.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void dgemm(GemmKernel kernel, boolean ta, boolean tb, int m, int n, int k,
      double[] a, double[] b, double[] c) {
    dgemm(kernel.implementation(), ta, tb, m, n, k, a, b, c);
  }

  /**
   * As {@link #dgemm(boolean, boolean, int, int, int, double[], double[], double[])} on the given
   * kernel ({@link Kernel#VECTOR} runs the portable loop for float64).
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void dgemm(Kernel kernel, boolean ta, boolean tb, int m, int n, int k, double[] a,
      double[] b, double[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    requireAvailable(kernel);
    if (kernel == Kernel.OPENBLAS) {
      OpenBlasGemm.dgemm(ta, tb, m, n, k, a, b, c);
      return;
    }
    double[] aa = ta ? transpose(a, k, m) : a;
    double[] bb = tb ? transpose(b, n, k) : b;
    java.util.Arrays.fill(c, 0, m * n, 0.0);
    for (int i = 0; i < m; i++) {
      int ci = i * n;
      for (int p = 0; p < k; p++) {
        double av = aa[i * k + p];
        int bp = p * n;
        for (int j = 0; j < n; j++) {
          c[ci + j] += av * bb[bp + j];
        }
      }
    }
  }

  /**
   * {@code c = alpha op(a) op(b) + beta c}, the full BLAS form: with {@code beta = 1} a product is
   * added onto {@code c} in place, without a temporary. As in BLAS, {@code c} is not read when
   * {@code beta} is 0. OpenBLAS does it in one call; the Java kernels compute the product into a
   * temporary and combine.
   */
  public static void sgemm(boolean ta, boolean tb, int m, int n, int k, float alpha, float[] a,
      float[] b, float beta, float[] c) {
    sgemm(GemmKernel.DEFAULT, ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  /**
   * As {@link #sgemm(boolean, boolean, int, int, int, float, float[], float[], float, float[])}
   * with {@code kernel}, the narrow kernel included where {@code kernel} runs it.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void sgemm(GemmKernel kernel, boolean ta, boolean tb, int m, int n, int k,
      float alpha, float[] a, float[] b, float beta, float[] c) {
    if (!ranNarrow(kernel, ta, tb, m, n, k, alpha, a, b, beta, c)) {
      sgemm(kernel.implementation(), kernel.threads(), ta, tb, m, n, k, alpha, a, b, beta, c);
    }
  }

  /**
   * Runs {@code c = alpha op(a) b + beta c} on {@link NarrowGemm} when {@code kernel} runs the
   * narrow kernel and the shape fits it; returns false, having done nothing, otherwise.
   */
  private static boolean ranNarrow(GemmKernel kernel, boolean ta, boolean tb, int m, int n, int k,
      float alpha, float[] a, float[] b, float beta, float[] c) {
    if (!kernel.narrowOnVector() || !NarrowGemm.fits(tb, n)) {
      return false;
    }
    checkSizes(m, n, k, a.length, b.length, c.length);
    NarrowGemm.multiply(ta, m, n, k, alpha, a, b, beta, c);
    return true;
  }

  /**
   * As {@link #sgemm(boolean, boolean, int, int, int, float, float[], float[], float, float[])} on
   * the given kernel.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void sgemm(Kernel kernel, boolean ta, boolean tb, int m, int n, int k,
      float alpha, float[] a, float[] b, float beta, float[] c) {
    sgemm(kernel, 1, ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  private static void sgemm(Kernel kernel, int threads, boolean ta, boolean tb, int m, int n,
      int k, float alpha, float[] a, float[] b, float beta, float[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    requireAvailable(kernel);
    if (kernel == Kernel.OPENBLAS) {
      OpenBlasGemm.sgemm(ta, tb, m, n, k, alpha, a, b, beta, c);
      return;
    }
    // The same roundings as NarrowGemm's, so that every Java kernel gives the same bits; the
    // product goes through a block of rows at a time, or none at all on the portable loop.
    int t = (long) m * n * k >= PARALLEL_MIN_MACS ? threads : 1;
    if (kernel == Kernel.PORTABLE) {
      portable(t, false, ta, tb, m, n, k, a, 0, b, c, 0, alpha, beta, true);
      return;
    }
    if (k > 0 && k <= VectorGemm.KC) {
      // One block of k (a training step's weight gradient over a batch): scaled as it is stored.
      if (t > 1 && splitsColumns(m, n)) {
        int align = VectorGemm.columnAlign();
        RowSplit.run(t, n, 2 * align, align, (from, to) ->
            VectorGemm.multiplyColumns(ta, tb, m, n, k, a, b, c, from, to, true, alpha, beta));
      } else {
        RowSplit.run(t, m, PARALLEL_MIN_ROWS, VectorGemm.rowAlign(), (from, to) ->
            VectorGemm.multiplyScaled(ta, tb, m, n, k, a, b, c, from, to, alpha, beta));
      }
      return;
    }
    RowSplit.run(t, m, PARALLEL_MIN_ROWS, VectorGemm.rowAlign(), (from, to) -> {
      float[] block = new float[Math.min(SCALED_BLOCK_ROWS, to - from) * n];
      for (int r0 = from; r0 < to; r0 += SCALED_BLOCK_ROWS) {
        int r1 = Math.min(to, r0 + SCALED_BLOCK_ROWS);
        // Rows r0..r1 of the product land at the start of the block.
        VectorGemm.multiply(ta, tb, m, n, k, a, 0, b, block, -r0 * n, r0, r1, false);
        for (int i = r0 * n, e = r1 * n, o = 0; i < e; i++, o++) {
          c[i] = combine(block[o], alpha, beta, c[i]);
        }
      }
    });
  }

  /**
   * As {@link #sgemm(boolean, boolean, int, int, int, float, float[], float[], float, float[])} for
   * float64.
   */
  public static void dgemm(boolean ta, boolean tb, int m, int n, int k, double alpha, double[] a,
      double[] b, double beta, double[] c) {
    dgemm(GemmKernel.DEFAULT, ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  /**
   * As {@link #dgemm(boolean, boolean, int, int, int, double, double[], double[], double,
   * double[])} with {@code kernel}.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void dgemm(GemmKernel kernel, boolean ta, boolean tb, int m, int n, int k,
      double alpha, double[] a, double[] b, double beta, double[] c) {
    dgemm(kernel.implementation(), ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  /**
   * As {@link #dgemm(boolean, boolean, int, int, int, double, double[], double[], double,
   * double[])} on the given kernel.
   *
   * @throws IllegalStateException if the kernel is not available
   */
  public static void dgemm(Kernel kernel, boolean ta, boolean tb, int m, int n, int k,
      double alpha, double[] a, double[] b, double beta, double[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    requireAvailable(kernel);
    if (kernel == Kernel.OPENBLAS) {
      OpenBlasGemm.dgemm(ta, tb, m, n, k, alpha, a, b, beta, c);
      return;
    }
    double[] product = new double[m * n];
    dgemm(kernel, ta, tb, m, n, k, a, b, product);
    for (int i = 0; i < product.length; i++) {
      c[i] = beta == 0.0 ? alpha * product[i] : alpha * product[i] + beta * c[i];
    }
  }

  /** {@code c[0 .. size) *= beta}, where beta 0 clears without reading (BLAS's rule). */
  static void scale(float[] c, int size, float beta) {
    if (beta == 0f) {
      java.util.Arrays.fill(c, 0, size, 0f);
    } else if (beta != 1f) {
      for (int i = 0; i < size; i++) {
        c[i] *= beta;
      }
    }
  }

  static void scale(double[] c, int size, double beta) {
    if (beta == 0.0) {
      java.util.Arrays.fill(c, 0, size, 0.0);
    } else if (beta != 1.0) {
      for (int i = 0; i < size; i++) {
        c[i] *= beta;
      }
    }
  }

  private static void checkSizes(int m, int n, int k, int la, int lb, int lc) {
    if ((long) m * k > la || (long) k * n > lb || (long) m * n > lc) {
      throw new IllegalArgumentException("gemm " + m + "x" + k + " by " + k + "x" + n
          + " does not fit arrays of " + la + ", " + lb + ", " + lc);
    }
  }

  /**
   * The k rows of n floats of op(B), each an array of its own: B holds [k, n] from {@code off},
   * or [n, k] when {@code tb}, read column by column then.
   */
  private static float[][] rowsOf(boolean tb, float[] b, int off, int k, int n) {
    float[][] rows = new float[k][];
    if (!tb) {
      for (int p = 0; p < k; p++) {
        rows[p] = java.util.Arrays.copyOfRange(b, off + p * n, off + p * n + n);
      }
      return rows;
    }
    for (int p = 0; p < k; p++) {
      rows[p] = new float[n];
    }
    // In 32 x 32 tiles, so that both the columns read and the rows written stay in cache.
    for (int j0 = 0; j0 < n; j0 += 32) {
      for (int p0 = 0; p0 < k; p0 += 32) {
        for (int j = j0; j < Math.min(n, j0 + 32); j++) {
          int from = off + j * k;
          for (int p = p0; p < Math.min(k, p0 + 32); p++) {
            rows[p][j] = b[from + p];
          }
        }
      }
    }
    return rows;
  }

  /**
   * The portable loop ({@link #scalar}): {@code c = op(a) op(b)} or C's chains continued, A from
   * {@code aOff} and C from {@code cOff}, rows split over {@code threads}. A product of fewer than
   * {@link #NARROW_COLUMNS} columns and at least twice as many rows is computed as its transpose,
   * c^T = op(b)^T op(a)^T, each finished row of c^T stored as a column of C: C2 vectorizes the
   * loop over a row of C, which for a few dozen columns mostly runs in its scalar remainder. Each
   * element is the same chain either way (fma(a, b, s) is fma(b, a, s)). With {@code scaled}, each
   * finished element p is written as {@link #combine}(p, alpha, beta, c) instead, the full BLAS
   * form without a temporary. A transposed left operand is read in place, by strides, not copied.
   */
  private static void portable(int threads, boolean accumulate, boolean ta, boolean tb, int m,
      int n, int k, float[] a, int aOff, float[] b, float[] c, int cOff, float alpha, float beta,
      boolean scaled) {
    if (m < DIRECT_MAX || k < DIRECT_MAX) {
      RowSplit.run(threads, m, PARALLEL_MIN_ROWS, 2, (from, to) -> direct(n, k, ta, tb, m, a,
          aOff, b, c, cOff, from, to, accumulate, alpha, beta, scaled));
      return;
    }
    if (n < NARROW_COLUMNS && m >= 2 * n) {
      // Row j of c^T is row j of op(b)^T times op(a)^T: op(b)^T is b read by strides; the rows
      // of op(a)^T are copied, so the inner loop runs over arrays indexed from 0.
      int bRow = tb ? k : 1;
      int bStep = tb ? 1 : n;
      float[][] rows = rowsOf(!ta, a, aOff, k, m);
      RowSplit.run(threads, n, PARALLEL_MIN_ROWS, 2,
          (from, to) -> scalar(m, k, b, 0, bRow, bStep, rows, c, cOff, 1, n, from, to,
              accumulate, alpha, beta, scaled));
      return;
    }
    float[][] rows = rowsOf(tb, b, 0, k, n);
    // A transposed A, [k, m] from aOff, is row i = column i: stride 1 between rows, m along one.
    int aRow = ta ? 1 : k;
    int aStep = ta ? m : 1;
    RowSplit.run(threads, m, PARALLEL_MIN_ROWS, 2,
        (from, to) -> scalar(n, k, a, aOff, aRow, aStep, rows, c, cOff, n, 1, from, to,
            accumulate, alpha, beta, scaled));
  }

  /**
   * Rows {@code [from, to)} of C. Each element of C is one chain of fused multiply-adds over k in
   * ascending order, as in the Vector API kernels, so all three give the same bits. B's rows are
   * copied into arrays of their own and each row of C is summed in a buffer, both indexed from 0:
   * C2 then vectorizes the inner loop, which it does not for two offsets into arrays that might be
   * one array (2-4 times faster than the loop over C and B in place). Four rows of C go together
   * (then two, then one) over four rows of B at a time, nesting four FMAs per element in k's
   * order: each load of B serves four rows and each buffer element is stored once per four steps,
   * not once per step (four rows instead of two: a 2NN layer's product 10-25% faster).
   *
   * <p>Element p of row i of A is {@code a[aOff + i * aRow + p * aStep]}, and element j of row i
   * of C is {@code c[cOff + i * cRow + j * cCol]}: a transposed operand or product is read or
   * written where it lies, without a transposed copy.
   */
  private static void scalar(int n, int k, float[] a, int aOff, int aRow, int aStep,
      float[][] rows, float[] c, int cOff, int cRow, int cCol, int from, int to,
      boolean accumulate, float alpha, float beta, boolean scaled) {
    float[] acc0 = new float[n];
    float[] acc1 = new float[n];
    int i = from;
    if (to - from >= 4) {
      float[] acc2 = new float[n];
      float[] acc3 = new float[n];
      for (; i + 4 <= to; i += 4) {
        int c0 = cOff + i * cRow;
        fourRows(n, k, a, aOff + i * aRow, aRow, aStep, rows, acc0, acc1, acc2, acc3, c, c0,
            cRow, cCol, accumulate);
        finish(acc0, c, c0, cCol, n, alpha, beta, scaled);
        finish(acc1, c, c0 + cRow, cCol, n, alpha, beta, scaled);
        finish(acc2, c, c0 + 2 * cRow, cCol, n, alpha, beta, scaled);
        finish(acc3, c, c0 + 3 * cRow, cCol, n, alpha, beta, scaled);
      }
    }
    for (; i + 2 <= to; i += 2) {
      start(acc0, c, cOff + i * cRow, cCol, n, accumulate);
      start(acc1, c, cOff + (i + 1) * cRow, cCol, n, accumulate);
      int a0 = aOff + i * aRow;
      int a1 = a0 + aRow;
      int p = 0;
      for (; p + 4 <= k; p += 4) {
        int q = p * aStep;
        float x0 = a[a0 + q];
        float x1 = a[a0 + q + aStep];
        float x2 = a[a0 + q + 2 * aStep];
        float x3 = a[a0 + q + 3 * aStep];
        float y0 = a[a1 + q];
        float y1 = a[a1 + q + aStep];
        float y2 = a[a1 + q + 2 * aStep];
        float y3 = a[a1 + q + 3 * aStep];
        float[] r0 = rows[p];
        float[] r1 = rows[p + 1];
        float[] r2 = rows[p + 2];
        float[] r3 = rows[p + 3];
        for (int j = 0; j < n; j++) {
          float b0 = r0[j];
          float b1 = r1[j];
          float b2 = r2[j];
          float b3 = r3[j];
          acc0[j] = Math.fma(x3, b3, Math.fma(x2, b2, Math.fma(x1, b1, Math.fma(x0, b0, acc0[j]))));
          acc1[j] = Math.fma(y3, b3, Math.fma(y2, b2, Math.fma(y1, b1, Math.fma(y0, b0, acc1[j]))));
        }
      }
      for (; p < k; p++) {
        float x0 = a[a0 + p * aStep];
        float y0 = a[a1 + p * aStep];
        float[] r0 = rows[p];
        for (int j = 0; j < n; j++) {
          float b0 = r0[j];
          acc0[j] = Math.fma(x0, b0, acc0[j]);
          acc1[j] = Math.fma(y0, b0, acc1[j]);
        }
      }
      finish(acc0, c, cOff + i * cRow, cCol, n, alpha, beta, scaled);
      finish(acc1, c, cOff + (i + 1) * cRow, cCol, n, alpha, beta, scaled);
    }
    for (; i < to; i++) {
      start(acc0, c, cOff + i * cRow, cCol, n, accumulate);
      int ai = aOff + i * aRow;
      for (int p = 0; p < k; p++) {
        float av = a[ai + p * aStep];
        float[] row = rows[p];
        for (int j = 0; j < n; j++) {
          acc0[j] = Math.fma(av, row[j], acc0[j]);
        }
      }
      finish(acc0, c, cOff + i * cRow, cCol, n, alpha, beta, scaled);
    }
  }

  /**
   * Writes a finished row of sums into C, its elements {@code step} apart from {@code at}: as it
   * is, or combined with alpha and beta.
   */
  private static void finish(float[] acc, float[] c, int at, int step, int n, float alpha,
      float beta, boolean scaled) {
    if (step == 1) {
      finish(acc, c, at, n, alpha, beta, scaled);
      return;
    }
    if (!scaled) {
      for (int j = 0, o = at; j < n; j++, o += step) {
        c[o] = acc[j];
      }
    } else {
      for (int j = 0, o = at; j < n; j++, o += step) {
        c[o] = combine(acc[j], alpha, beta, c[o]);
      }
    }
  }

  /** A row's sums start from zero, or from C's row, its elements {@code step} apart. */
  private static void start(float[] acc, float[] c, int at, int step, int n,
      boolean accumulate) {
    if (step == 1) {
      start(acc, c, at, n, accumulate);
    } else if (accumulate) {
      for (int j = 0, o = at; j < n; j++, o += step) {
        acc[j] = c[o];
      }
    } else {
      java.util.Arrays.fill(acc, 0f);
    }
  }

  /**
   * Sums four rows of C, from {@code a0} in A and {@code c0} in C, into the four buffers over four
   * rows of B at a time: each load of B serves four rows, so B (a layer's weights, a few hundred
   * KiB) is streamed half as often as two rows at a time would. The same chains, in k's order.
   */
  private static void fourRows(int n, int k, float[] a, int a0, int aRow, int aStep,
      float[][] rows, float[] acc0, float[] acc1, float[] acc2, float[] acc3, float[] c, int c0,
      int cRow, int cCol, boolean accumulate) {
    start(acc0, c, c0, cCol, n, accumulate);
    start(acc1, c, c0 + cRow, cCol, n, accumulate);
    start(acc2, c, c0 + 2 * cRow, cCol, n, accumulate);
    start(acc3, c, c0 + 3 * cRow, cCol, n, accumulate);
    int a1 = a0 + aRow;
    int a2 = a1 + aRow;
    int a3 = a2 + aRow;
    int s1 = aStep;
    int s2 = 2 * aStep;
    int s3 = 3 * aStep;
    int p = 0;
    for (; p + 4 <= k; p += 4) {
      int q = p * aStep;
      float x0 = a[a0 + q];
      float x1 = a[a0 + q + s1];
      float x2 = a[a0 + q + s2];
      float x3 = a[a0 + q + s3];
      float y0 = a[a1 + q];
      float y1 = a[a1 + q + s1];
      float y2 = a[a1 + q + s2];
      float y3 = a[a1 + q + s3];
      float u0 = a[a2 + q];
      float u1 = a[a2 + q + s1];
      float u2 = a[a2 + q + s2];
      float u3 = a[a2 + q + s3];
      float v0 = a[a3 + q];
      float v1 = a[a3 + q + s1];
      float v2 = a[a3 + q + s2];
      float v3 = a[a3 + q + s3];
      float[] r0 = rows[p];
      float[] r1 = rows[p + 1];
      float[] r2 = rows[p + 2];
      float[] r3 = rows[p + 3];
      for (int j = 0; j < n; j++) {
        float b0 = r0[j];
        float b1 = r1[j];
        float b2 = r2[j];
        float b3 = r3[j];
        acc0[j] = Math.fma(x3, b3, Math.fma(x2, b2, Math.fma(x1, b1, Math.fma(x0, b0, acc0[j]))));
        acc1[j] = Math.fma(y3, b3, Math.fma(y2, b2, Math.fma(y1, b1, Math.fma(y0, b0, acc1[j]))));
        acc2[j] = Math.fma(u3, b3, Math.fma(u2, b2, Math.fma(u1, b1, Math.fma(u0, b0, acc2[j]))));
        acc3[j] = Math.fma(v3, b3, Math.fma(v2, b2, Math.fma(v1, b1, Math.fma(v0, b0, acc3[j]))));
      }
    }
    for (; p < k; p++) {
      int q = p * aStep;
      float x0 = a[a0 + q];
      float y0 = a[a1 + q];
      float u0 = a[a2 + q];
      float v0 = a[a3 + q];
      float[] r0 = rows[p];
      for (int j = 0; j < n; j++) {
        float b0 = r0[j];
        acc0[j] = Math.fma(x0, b0, acc0[j]);
        acc1[j] = Math.fma(y0, b0, acc1[j]);
        acc2[j] = Math.fma(u0, b0, acc2[j]);
        acc3[j] = Math.fma(v0, b0, acc3[j]);
      }
    }
  }

  /**
   * Rows {@code [from, to)} of C with op(A) and op(B) read where they lie, for a product with a
   * few rows (a batch of one: a row vector times a weight matrix) or a few steps of k (a weight
   * gradient over a batch of one: an outer product). Copying B's rows or a transposed C there
   * costs as much as the product itself, and allocates a model-sized array per call. Each element
   * is the same chain as in {@link #scalar}: from zero or C's value, one fused multiply-add per
   * step of k in ascending order, then {@link #finish}.
   */
  private static void direct(int n, int k, boolean ta, boolean tb, int m, float[] a, int aOff,
      float[] b, float[] c, int cOff, int from, int to, boolean accumulate, float alpha,
      float beta, boolean scaled) {
    if (k == 1) {
      RankOne.rows(n, a, aOff, b, c, cOff, from, to, accumulate, alpha, beta, scaled);
      return;
    }
    if (k < DIRECT_MAX) {
      // An outer product (or nearly): each element's few steps in registers, C read once.
      for (int i = from; i < to; i++) {
        int ci = cOff + i * n;
        for (int j = 0; j < n; j++) {
          float s = accumulate ? c[ci + j] : 0f;
          for (int p = 0; p < k; p++) {
            float av = ta ? a[aOff + p * m + i] : a[aOff + i * k + p];
            s = Math.fma(av, tb ? b[j * k + p] : b[p * n + j], s);
          }
          c[ci + j] = scaled ? combine(s, alpha, beta, c[ci + j]) : s;
        }
      }
      return;
    }
    float[] acc = new float[n];
    for (int i = from; i < to; i++) {
      start(acc, c, cOff + i * n, n, accumulate);
      int p = 0;
      if (!tb) {
        // Four steps of k at a time, nested in k's order: acc is loaded and stored once per four.
        for (; p + 4 <= k; p += 4) {
          float x0 = ta ? a[aOff + p * m + i] : a[aOff + i * k + p];
          float x1 = ta ? a[aOff + (p + 1) * m + i] : a[aOff + i * k + p + 1];
          float x2 = ta ? a[aOff + (p + 2) * m + i] : a[aOff + i * k + p + 2];
          float x3 = ta ? a[aOff + (p + 3) * m + i] : a[aOff + i * k + p + 3];
          int b0 = p * n;
          int b1 = b0 + n;
          int b2 = b1 + n;
          int b3 = b2 + n;
          for (int j = 0; j < n; j++) {
            acc[j] = Math.fma(x3, b[b3 + j], Math.fma(x2, b[b2 + j],
                Math.fma(x1, b[b1 + j], Math.fma(x0, b[b0 + j], acc[j]))));
          }
        }
      }
      for (; p < k; p++) {
        float av = ta ? a[aOff + p * m + i] : a[aOff + i * k + p];
        if (tb) {
          for (int j = 0, bj = p; j < n; j++, bj += k) {
            acc[j] = Math.fma(av, b[bj], acc[j]);
          }
        } else {
          int bp = p * n;
          for (int j = 0; j < n; j++) {
            acc[j] = Math.fma(av, b[bp + j], acc[j]);
          }
        }
      }
      finish(acc, c, cOff + i * n, n, alpha, beta, scaled);
    }
  }

  /** Writes a finished row of sums into C: as it is, or combined with alpha and beta. */
  private static void finish(float[] acc, float[] c, int at, int n, float alpha, float beta,
      boolean scaled) {
    if (!scaled) {
      System.arraycopy(acc, 0, c, at, n);
    } else if (beta == 0f) {
      for (int j = 0; j < n; j++) {
        c[at + j] = alpha * acc[j];
      }
    } else {
      for (int j = 0; j < n; j++) {
        c[at + j] = Math.fma(acc[j], alpha, beta * c[at + j]);
      }
    }
  }

  /**
   * The full BLAS form's last step on the Java kernels, {@code alpha p + beta c} rounded as
   * NarrowGemm rounds it: alpha p when beta is 0 (c not read), else fma(p, alpha, beta c).
   */
  static float combine(float p, float alpha, float beta, float c) {
    return beta == 0f ? alpha * p : Math.fma(p, alpha, beta * c);
  }

  /** A row's sums start from zero, or from C's row when they continue its chains. */
  private static void start(float[] acc, float[] c, int at, int n, boolean accumulate) {
    if (accumulate) {
      System.arraycopy(c, at, acc, 0, n);
    } else {
      java.util.Arrays.fill(acc, 0f);
    }
  }

  /**
   * {@code c = op(a) op(b)} on one thread, A starting at {@code aOff} and C at {@code cOff} in their
   * arrays; with {@code accumulate}, C's chains continue ({@code c += op(a) op(b)}, each element's
   * fused multiply-adds going on from its value, so that splitting k over calls changes no bits on
   * the Java kernels; OpenBLAS adds with beta = 1). What convolutions run on, chunk by chunk.
   */
  static void sgemmAt(Kernel kernel, boolean accumulate, boolean ta, boolean tb, int m, int n,
      int k, float[] a, int aOff, float[] b, float[] c, int cOff) {
    requireAvailable(kernel);
    if ((long) aOff + (long) m * k > a.length || (long) k * n > b.length
        || (long) cOff + (long) m * n > c.length) {
      throw new IllegalArgumentException("gemm " + m + "x" + k + " by " + k + "x" + n
          + " at offsets " + aOff + ", " + cOff + " does not fit arrays of " + a.length + ", "
          + b.length + ", " + c.length);
    }
    switch (kernel) {
      case OPENBLAS -> {
        float[] aa = java.util.Arrays.copyOfRange(a, aOff, aOff + m * k);
        float[] cc = accumulate ? java.util.Arrays.copyOfRange(c, cOff, cOff + m * n)
            : new float[m * n];
        OpenBlasGemm.sgemm(ta, tb, m, n, k, 1f, aa, b, accumulate ? 1f : 0f, cc);
        System.arraycopy(cc, 0, c, cOff, m * n);
      }
      case VECTOR -> VectorGemm.multiply(ta, tb, m, n, k, a, aOff, b, c, cOff, 0, m, accumulate);
      case PORTABLE -> portable(1, accumulate, ta, tb, m, n, k, a, aOff, b, c, cOff, 1f, 0f,
          false);
    }
  }

  /** {@code src} holds [rows, cols]; returns [cols, rows]. */
  static float[] transpose(float[] src, int rows, int cols) {
    float[] out = new float[rows * cols];
    transpose(src, rows, cols, out);
    return out;
  }

  /**
   * {@code src} holds [rows, cols]; writes its transpose, [cols, rows], into {@code dst}. In
   * 32 x 32 tiles, so both sides of a large matrix stay in cache.
   */
  static void transpose(float[] src, int rows, int cols, float[] dst) {
    transpose(src, rows, cols, dst, 0);
  }

  /** As {@link #transpose(float[], int, int, float[])}, writing from {@code off} in dst. */
  static void transpose(float[] src, int rows, int cols, float[] dst, int off) {
    for (int i0 = 0; i0 < rows; i0 += 32) {
      for (int j0 = 0; j0 < cols; j0 += 32) {
        for (int i = i0; i < Math.min(rows, i0 + 32); i++) {
          for (int j = j0; j < Math.min(cols, j0 + 32); j++) {
            dst[off + j * rows + i] = src[i * cols + j];
          }
        }
      }
    }
  }

  static double[] transpose(double[] src, int rows, int cols) {
    double[] out = new double[rows * cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        out[j * rows + i] = src[i * cols + j];
      }
    }
    return out;
  }
}
