package io.tributary.graph.ops;

import java.util.Optional;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * Matrix products through OpenBLAS's {@code cblas_sgemm} and {@code cblas_dgemm}; the library
 * comes from the JavaCPP presets ({@code org.bytedeco:openblas}), whose platform jar carries it.
 *
 * <p>Touching this class loads the natives; that fails with a {@link LinkageError} when they are
 * not on the class path, which {@link Gemm} takes as "OpenBLAS not available". Once loaded,
 * OpenBLAS is held to one thread, so a product runs on the caller's thread like the Java kernels
 * do: the graph runtime is single-threaded, and clients running side by side must not each start
 * a pool as wide as the machine. Calls go through {@code CriticalCblas} where the JDK has critical
 * downcalls (22+), else through JavaCPP's JNI methods, which copy the arrays. Degenerate sizes
 * never reach OpenBLAS (it rejects a leading dimension of 0).
 */
final class OpenBlasGemm {
  private static final Cblas JNI = new JniCblas();
  private static final Optional<Cblas> CRITICAL;
  private static final Cblas CBLAS;

  static {
    Loader.load(openblas_nolapack.class);
    openblas_nolapack.blas_set_num_threads(1);
    CRITICAL = critical();
    CBLAS = CRITICAL.orElse(JNI);
  }

  private OpenBlasGemm() {}

  private static Optional<Cblas> critical() {
    if (Runtime.version().feature() < 22) {
      return Optional.empty();
    }
    try {
      // A fixed name: the class is compiled for 22+ by the pom's java22 profile, so it may be
      // absent (built on JDK 21) and must not be linked from code that JDK 21 loads.
      Class<? extends Cblas> type = Class.forName("io.tributary.graph.ops.CriticalCblas")
          .asSubclass(Cblas.class);
      return Optional.of(type.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException | LinkageError e) {
      return Optional.empty();
    }
  }

  /** Forces the natives to load; throws {@link LinkageError} when they cannot be. */
  static void ensureLoaded() {
    // The static initializer did the work; calling any method runs it exactly once.
  }

  /** How calls reach OpenBLAS: {@code "critical downcall"} or {@code "JNI (copies arrays)"}. */
  static String binding() {
    return CRITICAL.isPresent() ? "critical downcall" : "JNI (copies arrays)";
  }

  /** The JNI binding, always present once loaded (tests compare it with the critical one). */
  static Cblas jni() {
    return JNI;
  }

  /** The critical-downcall binding, where this JDK and build have it. */
  static Optional<Cblas> criticalBinding() {
    return CRITICAL;
  }

  /** {@code c = op(a) op(b)} in float32 on the preferred binding; sizes are checked by the caller. */
  static void sgemm(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b, float[] c) {
    sgemm(CBLAS, ta, tb, m, n, k, 1f, a, b, 0f, c);
  }

  /**
   * {@code c = alpha op(a) op(b) + beta c} in float32 on the preferred binding; as in BLAS, {@code
   * c} is not read when {@code beta} is 0. Sizes are checked by the caller.
   */
  static void sgemm(boolean ta, boolean tb, int m, int n, int k, float alpha, float[] a,
      float[] b, float beta, float[] c) {
    sgemm(CBLAS, ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  static void sgemm(Cblas cblas, boolean ta, boolean tb, int m, int n, int k, float[] a,
      float[] b, float[] c) {
    sgemm(cblas, ta, tb, m, n, k, 1f, a, b, 0f, c);
  }

  static void sgemm(Cblas cblas, boolean ta, boolean tb, int m, int n, int k, float alpha,
      float[] a, float[] b, float beta, float[] c) {
    if (m == 0 || n == 0) {
      return;
    }
    if (k == 0) {
      Gemm.scale(c, m * n, beta);
      return;
    }
    if (transposesResult(ta, tb, m, n, k, beta)) {
      // A new array is already zero: beta 1 adds onto it without OpenBLAS clearing it again.
      float[] ct = new float[m * n];
      cblas.sgemm(trans(true), trans(true), n, m, k, alpha, b, n, a, k, 1f, ct, m);
      Gemm.transpose(ct, n, m, c);
      return;
    }
    if (beta == 0f) {
      // OpenBLAS clears C with a scalar loop before adding the product onto it; the JIT's fill is
      // vectorised, and beta 1 then skips OpenBLAS's pass.
      java.util.Arrays.fill(c, 0, m * n, 0f);
      beta = 1f;
    }
    cblas.sgemm(trans(ta), trans(tb), m, n, k, alpha, a, ta ? m : k, b, tb ? k : n, beta, c, n);
  }

  /** Rows of A up to which a large B is better passed as OpenBLAS's second operand. */
  static final int TRANSPOSED_MAX_ROWS = 32;
  /** Elements of B from which it is. */
  static final long TRANSPOSED_MIN_B = 1 << 16;

  /**
   * True when {@link #sgemm} computes {@code c^T = b^T a^T} and transposes it, instead of {@code
   * c = a b}. OpenBLAS packs both operands on every call, and the JavaCPP build (0.3.30) packs its
   * first column-major operand, which for a row-major {@code a b} is B, several times slower per
   * element than its second. With a few rows of A and a large B, packing B dominates: a weight
   * matrix times a batch of 10-32 examples (32 x 784 x 200 and up) runs 10-30% faster with B
   * second, counting the transpose of C. From about 64 rows the kernel dominates and it gains
   * nothing. Measured for untransposed operands only; a product onto C (beta != 0) stays direct.
   */
  static boolean transposesResult(boolean ta, boolean tb, int m, int n, int k, float beta) {
    return !ta && !tb && beta == 0f && m <= TRANSPOSED_MAX_ROWS
        && (long) k * n >= TRANSPOSED_MIN_B;
  }

  /** {@code c = op(a) op(b)} in float64 on the preferred binding; sizes are checked by the caller. */
  static void dgemm(boolean ta, boolean tb, int m, int n, int k, double[] a, double[] b,
      double[] c) {
    dgemm(CBLAS, ta, tb, m, n, k, 1.0, a, b, 0.0, c);
  }

  /** As {@link #sgemm(boolean, boolean, int, int, int, float, float[], float[], float, float[])}. */
  static void dgemm(boolean ta, boolean tb, int m, int n, int k, double alpha, double[] a,
      double[] b, double beta, double[] c) {
    dgemm(CBLAS, ta, tb, m, n, k, alpha, a, b, beta, c);
  }

  static void dgemm(Cblas cblas, boolean ta, boolean tb, int m, int n, int k, double[] a,
      double[] b, double[] c) {
    dgemm(cblas, ta, tb, m, n, k, 1.0, a, b, 0.0, c);
  }

  static void dgemm(Cblas cblas, boolean ta, boolean tb, int m, int n, int k, double alpha,
      double[] a, double[] b, double beta, double[] c) {
    if (m == 0 || n == 0) {
      return;
    }
    if (k == 0) {
      Gemm.scale(c, m * n, beta);
      return;
    }
    cblas.dgemm(trans(ta), trans(tb), m, n, k, alpha, a, ta ? m : k, b, tb ? k : n, beta, c, n);
  }

  private static int trans(boolean t) {
    return t ? openblas_nolapack.CblasTrans : openblas_nolapack.CblasNoTrans;
  }

  /** JavaCPP's generated JNI methods: portable to JDK 21, but they copy each array. */
  private static final class JniCblas implements Cblas {
    @Override
    public void sgemm(int transA, int transB, int m, int n, int k, float alpha, float[] a,
        int lda, float[] b, int ldb, float beta, float[] c, int ldc) {
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, transA, transB, m, n, k,
          alpha, a, lda, b, ldb, beta, c, ldc);
    }

    @Override
    public void dgemm(int transA, int transB, int m, int n, int k, double alpha, double[] a,
        int lda, double[] b, int ldb, double beta, double[] c, int ldc) {
      openblas_nolapack.cblas_dgemm(openblas_nolapack.CblasRowMajor, transA, transB, m, n, k,
          alpha, a, lda, b, ldb, beta, c, ldc);
    }
  }
}
