package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.tributary.graph.ops.Gemm.Kernel;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code c = alpha op(a) op(b) + beta c} on every kernel against a float64 reference. */
class GemmScaledTest {
  private static final int[][] MNK = {{1, 1, 1}, {7, 17, 5}, {32, 200, 784}, {784, 200, 32},
      {0, 4, 3}, {4, 0, 3}, {3, 4, 0}};
  private static final float[][] ALPHA_BETA = {{1, 0}, {-0.01f, 1}, {2.5f, -0.5f}, {0, 1}};

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> s = Stream.builder();
    for (Kernel kernel : Kernel.values()) {
      for (int[] d : MNK) {
        for (float[] ab : ALPHA_BETA) {
          for (int t = 0; t < 4; t++) {
            s.add(Arguments.of(kernel, d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0, ab[0],
                ab[1]));
          }
        }
      }
    }
    return s.build();
  }

  private static double[] random(SplittableRandom rnd, int size) {
    double[] x = new double[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }

  private static float[] narrow(double[] x) {
    float[] f = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      f[i] = (float) x[i];
    }
    return f;
  }

  /** alpha op(a) op(b) + beta c by the definition; c is not read when beta is 0. */
  private static double[] reference(boolean ta, boolean tb, int m, int n, int k, double alpha,
      double[] a, double[] b, double beta, double[] c) {
    double[] out = new double[m * n];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int p = 0; p < k; p++) {
          s += (ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
        }
        out[i * n + j] = alpha * s + (beta == 0 ? 0 : beta * c[i * n + j]);
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1}x{2}x{3} ta={4} tb={5} alpha={6} beta={7}")
  @MethodSource("cases")
  void sgemm_alphaBeta_matchesReference(Kernel kernel, int m, int n, int k, boolean ta,
      boolean tb, float alpha, float beta) {
    assumeThat(Gemm.isAvailable(kernel)).as(kernel + " available").isTrue();
    SplittableRandom rnd = new SplittableRandom(m * 31 + n * 7 + k);
    double[] a = random(rnd, m * k);
    double[] b = random(rnd, k * n);
    double[] c0 = random(rnd, m * n);
    double[] ref = reference(ta, tb, m, n, k, alpha, a, b, beta, c0);
    float[] c = narrow(c0);
    if (beta == 0) {
      // BLAS does not read c when beta is 0: NaN there must not leak into the result.
      Arrays.fill(c, Float.NaN);
    }
    Gemm.sgemm(kernel, ta, tb, m, n, k, alpha, narrow(a), narrow(b), beta, c);
    Offset<Double> tol = Offset.offset(1e-4 * (1 + k / 100.0));
    for (int i = 0; i < c.length; i++) {
      assertThat((double) c[i]).as("c[%d]", i).isCloseTo(ref[i], tol);
    }
  }

  @ParameterizedTest(name = "{0} {1}x{2}x{3} ta={4} tb={5} alpha={6} beta={7}")
  @MethodSource("cases")
  void dgemm_alphaBeta_matchesReference(Kernel kernel, int m, int n, int k, boolean ta,
      boolean tb, float alpha, float beta) {
    assumeThat(Gemm.isAvailable(kernel)).as(kernel + " available").isTrue();
    SplittableRandom rnd = new SplittableRandom(m * 17 + n * 5 + k);
    double[] a = random(rnd, m * k);
    double[] b = random(rnd, k * n);
    double[] c = random(rnd, m * n);
    double[] ref = reference(ta, tb, m, n, k, alpha, a, b, beta, c);
    if (beta == 0) {
      Arrays.fill(c, Double.NaN);
    }
    Gemm.dgemm(kernel, ta, tb, m, n, k, alpha, a, b, beta, c);
    for (int i = 0; i < c.length; i++) {
      assertThat(c[i]).as("c[%d]", i).isCloseTo(ref[i], Offset.offset(1e-12 * (1 + k)));
    }
  }

  static Stream<Arguments> scaledShapes() {
    // k up to VectorGemm.KC takes the one-pass scaled store; 300 the product-then-combine path.
    Stream.Builder<Arguments> s = Stream.builder();
    for (int[] d : new int[][] {{784, 200, 32}, {67, 45, 256}, {13, 40, 7}, {64, 96, 300}}) {
      for (float[] ab : ALPHA_BETA) {
        for (int t = 0; t < 4; t++) {
          s.add(Arguments.of(d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0, ab[0], ab[1]));
        }
      }
    }
    return s.build();
  }

  @ParameterizedTest(name = "{0}x{1}x{2} ta={3} tb={4} alpha={5} beta={6}")
  @MethodSource("scaledShapes")
  void sgemm_alphaBetaOnEveryJavaKernelAndThreadCount_givesThePortableBits(int m, int n, int k,
      boolean ta, boolean tb, float alpha, float beta) {
    SplittableRandom rnd = new SplittableRandom(m * 13 + n * 3 + k);
    float[] a = narrow(random(rnd, m * k));
    float[] b = narrow(random(rnd, k * n));
    float[] c0 = narrow(random(rnd, m * n));
    float[] portable = c0.clone();
    Gemm.sgemm(Kernel.PORTABLE, ta, tb, m, n, k, alpha, a, b, beta, portable);
    for (Kernel impl : List.of(Kernel.VECTOR, Kernel.PORTABLE)) {
      for (int threads = 1; threads <= 3; threads++) {
        GemmKernel kernel = GemmKernel.of(impl).withThreads(threads);
        float[] c = c0.clone();
        Gemm.sgemm(kernel, ta, tb, m, n, k, alpha, a, b, beta, c);
        assertThat(c).as("%s", kernel).containsExactly(portable);
      }
    }
  }

  @Test
  void sgemm_betaOne_addsOntoC() {
    float[] c = {1, 1, 1, 1};
    Gemm.sgemm(false, false, 2, 2, 2, -1f, new float[] {1, 2, 3, 4}, new float[] {5, 6, 7, 8},
        1f, c);
    assertThat(c).containsExactly(-18, -21, -42, -49);
  }

  @Test
  void sgemm_scaledArraysTooSmall_throwsNamingSizes() {
    for (Kernel kernel : Kernel.values()) {
      assertThatThrownBy(() -> Gemm.sgemm(kernel, false, false, 2, 3, 4, 1f, new float[8],
          new float[12], 1f, new float[5]))
          .as(kernel.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("2x4 by 4x3");
    }
  }
}
