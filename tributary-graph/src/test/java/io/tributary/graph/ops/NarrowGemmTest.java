package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The narrow Vector API kernel against a float64 reference, and Gemm's routing to it. */
class NarrowGemmTest {
  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> s = Stream.builder();
    int[] ms = {0, 1, 3, 4, 5, 9, 10, 61};
    int[] ks = {0, 1, 7, 60};
    float[][] alphaBeta = {{1, 0}, {-0.01f, 1}, {2.5f, -0.5f}};
    for (int n = 8; n <= 16; n++) {
      for (int m : ms) {
        for (int k : ks) {
          for (float[] ab : alphaBeta) {
            s.add(Arguments.of(m, n, k, false, ab[0], ab[1]));
            s.add(Arguments.of(m, n, k, true, ab[0], ab[1]));
          }
        }
      }
    }
    return s.build();
  }

  @ParameterizedTest(name = "m={0} n={1} k={2} ta={3} alpha={4} beta={5}")
  @MethodSource("cases")
  void multiply_narrowShapes_matchesFloat64Reference(int m, int n, int k, boolean ta, float alpha,
      float beta) {
    SplittableRandom rnd = new SplittableRandom(31L * m + 7L * n + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] c = random(rnd, m * n);
    // A guard element past C must survive: the kernel writes exactly m x n.
    float[] out = Arrays.copyOf(c, m * n + 1);
    out[m * n] = 42f;
    if (beta == 0f) {
      Arrays.fill(out, 0, m * n, Float.NaN); // C is not read when beta is 0
    }
    NarrowGemm.multiply(ta, m, n, k, alpha, a, b, beta, out);
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double sum = 0;
        double mass = 0;
        for (int p = 0; p < k; p++) {
          double x = ta ? a[p * m + i] : a[i * k + p];
          sum += x * b[p * n + j];
          mass += Math.abs(x * b[p * n + j]);
        }
        double old = c[i * n + j];
        double expected = alpha * sum + (beta == 0f ? 0 : beta * old);
        double tolerance = 1e-6 * (Math.abs(alpha) * mass + Math.abs(beta * old)) + 1e-7;
        assertThat((double) out[i * n + j]).as("c[%d, %d]", i, j)
            .isCloseTo(expected, Offset.offset(tolerance));
      }
    }
    assertThat(out[m * n]).isEqualTo(42f);
  }

  @Test
  void fits_onlyUntransposedBWith8To16Columns() {
    assertThat(NarrowGemm.fits(false, 7)).isFalse();
    assertThat(NarrowGemm.fits(false, 8)).isTrue();
    assertThat(NarrowGemm.fits(false, 16)).isTrue();
    assertThat(NarrowGemm.fits(false, 17)).isFalse();
    assertThat(NarrowGemm.fits(true, 10)).isFalse();
  }

  @Test
  void sgemm_narrowProduct_routesToTheNarrowKernel() {
    // The tests run with the module and without tributary.gemm, on AVX2 or wider.
    assertThat(Gemm.narrowOnVector()).isEqualTo(NarrowGemm.native8());
    SplittableRandom rnd = new SplittableRandom(5);
    float[] a = random(rnd, 10 * 60);
    float[] b = random(rnd, 60 * 10);
    float[] viaGemm = new float[100];
    float[] direct = new float[100];
    Gemm.sgemm(false, false, 10, 10, 60, a, b, viaGemm);
    NarrowGemm.multiply(false, 10, 10, 60, 1f, a, b, 0f, direct);
    if (Gemm.narrowOnVector()) {
      assertThat(viaGemm).containsExactly(direct);
    }
  }

  @ParameterizedTest
  @CsvSource({"10, 10, 60, false, 1, 0", "13, 16, 300, false, 1, 0", "60, 10, 10, true, -0.01, 1",
      "7, 9, 33, false, 0.5, 0.25"})
  void multiply_narrowShapes_givesThePortableKernelsBits(int m, int n, int k, boolean ta,
      float alpha, float beta) {
    SplittableRandom rnd = new SplittableRandom(11L * m + n + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] c0 = random(rnd, m * n);
    float[] narrow = c0.clone();
    float[] portable = c0.clone();
    NarrowGemm.multiply(ta, m, n, k, alpha, a, b, beta, narrow);
    Gemm.sgemm(Gemm.Kernel.PORTABLE, ta, false, m, n, k, alpha, a, b, beta, portable);
    assertThat(narrow).containsExactly(portable);
  }

  @Test
  void startInBackground_always_runsOnADaemonThreadAndEnds() throws InterruptedException {
    Thread t = KernelWarmUp.startInBackground();
    assertThat(t.isDaemon()).isTrue();
    assertThat(t).isNotSameAs(Thread.currentThread());
    t.join(60_000);
    assertThat(t.isAlive()).isFalse();
  }

  private static float[] random(SplittableRandom rnd, int size) {
    float[] x = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }
}
