package io.tributary.graph.ops;

/**
 * Dense matrix products {@code C = op(A) op(B)} on row-major arrays, where op transposes or not.
 *
 * <p>float32 products go to the Vector API kernel ({@code VectorGemm}) when the {@code
 * jdk.incubator.vector} module is present at run time (and the system property {@code
 * tributary.gemm.scalar} is not true), else to a portable blocked loop; the portable path and
 * float64 first copy transposed operands into row-major order.
 */
public final class Gemm {
  private static final boolean VECTOR = ModuleLayer.boot().findModule("jdk.incubator.vector")
      .isPresent() && !Boolean.getBoolean("tributary.gemm.scalar");

  private Gemm() {}

  /** True when float32 products use the Vector API kernel. */
  public static boolean usesVectorApi() {
    return VECTOR;
  }

  /**
   * {@code c = op(a) op(b)}, with op(a) of shape [m, k] and op(b) of shape [k, n]; {@code c} is
   * overwritten. With {@code ta}, {@code a} holds [k, m]; with {@code tb}, {@code b} holds [n, k].
   */
  public static void sgemm(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b,
      float[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    if (VECTOR) {
      VectorGemm.multiply(ta, tb, m, n, k, a, b, c);
      return;
    }
    float[] aa = ta ? transpose(a, k, m) : a;
    float[] bb = tb ? transpose(b, n, k) : b;
    scalar(m, n, k, aa, bb, c);
  }

  /** The portable float32 kernel (always available; also the reference in tests). */
  public static void sgemmScalar(int m, int n, int k, float[] a, float[] b, float[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
    scalar(m, n, k, a, b, c);
  }

  /** As {@link #sgemm} for float64. */
  public static void dgemm(boolean ta, boolean tb, int m, int n, int k, double[] a, double[] b,
      double[] c) {
    checkSizes(m, n, k, a.length, b.length, c.length);
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

  private static void checkSizes(int m, int n, int k, int la, int lb, int lc) {
    if ((long) m * k > la || (long) k * n > lb || (long) m * n > lc) {
      throw new IllegalArgumentException("gemm " + m + "x" + k + " by " + k + "x" + n
          + " does not fit arrays of " + la + ", " + lb + ", " + lc);
    }
  }

  private static final int KC = 256;
  private static final int NC = 512;

  /** Blocked over k and n so a panel of B stays in cache while rows of A stream by. */
  private static void scalar(int m, int n, int k, float[] a, float[] b, float[] c) {
    java.util.Arrays.fill(c, 0, m * n, 0f);
    for (int j0 = 0; j0 < n; j0 += NC) {
      int j1 = Math.min(n, j0 + NC);
      for (int p0 = 0; p0 < k; p0 += KC) {
        int p1 = Math.min(k, p0 + KC);
        for (int i = 0; i < m; i++) {
          int ci = i * n;
          int ai = i * k;
          for (int p = p0; p < p1; p++) {
            float av = a[ai + p];
            int bp = p * n;
            for (int j = j0; j < j1; j++) {
              c[ci + j] += av * b[bp + j];
            }
          }
        }
      }
    }
  }

  /** {@code src} holds [rows, cols]; returns [cols, rows]. */
  static float[] transpose(float[] src, int rows, int cols) {
    float[] out = new float[rows * cols];
    for (int i0 = 0; i0 < rows; i0 += 32) {
      for (int j0 = 0; j0 < cols; j0 += 32) {
        for (int i = i0; i < Math.min(rows, i0 + 32); i++) {
          for (int j = j0; j < Math.min(cols, j0 + 32); j++) {
            out[j * rows + i] = src[i * cols + j];
          }
        }
      }
    }
    return out;
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
