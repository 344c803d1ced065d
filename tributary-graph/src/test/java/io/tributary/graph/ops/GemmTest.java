package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.tributary.graph.ops.Gemm.Kernel;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kernel's products against a float64 reference of plain loops, over awkward sizes. */
class GemmTest {
  private static final int[][] MNK = {{1, 1, 1}, {6, 16, 3}, {7, 17, 5}, {32, 200, 784},
      {13, 33, 300}, {5, 3, 600}, {0, 4, 3}, {4, 0, 3}, {3, 4, 0}, {64, 64, 64}, {784, 200, 32}};

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> s = Stream.builder();
    for (Kernel kernel : Kernel.values()) {
      for (int[] d : MNK) {
        for (int t = 0; t < 4; t++) {
          s.add(Arguments.of(kernel, d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0));
        }
      }
    }
    return s.build();
  }

  private static float[] random(SplittableRandom rnd, int size) {
    float[] x = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }

  private static double[] widen(float[] x) {
    double[] d = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      d[i] = x[i];
    }
    return d;
  }

  /** op(a) op(b) in float64 by the definition, independent of every kernel. */
  private static double[] reference(boolean ta, boolean tb, int m, int n, int k, double[] a,
      double[] b) {
    double[] c = new double[m * n];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int p = 0; p < k; p++) {
          s += (ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
        }
        c[i * n + j] = s;
      }
    }
    return c;
  }

  @ParameterizedTest(name = "{0} {1}x{2}x{3} ta={4} tb={5}")
  @MethodSource("cases")
  void sgemm_randomMatrices_matchesFloat64Reference(Kernel kernel, int m, int n, int k,
      boolean ta, boolean tb) {
    assumeThat(Gemm.isAvailable(kernel)).as(kernel + " available").isTrue();
    SplittableRandom rnd = new SplittableRandom(m * 31 + n * 7 + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    double[] ref = reference(ta, tb, m, n, k, widen(a), widen(b));
    float[] c = new float[m * n];
    Arrays.fill(c, 99f);
    Gemm.sgemm(kernel, ta, tb, m, n, k, a, b, c);
    Offset<Double> tol = Offset.offset(1e-4 * (1 + k / 100.0));
    for (int i = 0; i < c.length; i++) {
      assertThat((double) c[i]).as("c[%d]", i).isCloseTo(ref[i], tol);
    }
  }

  @ParameterizedTest(name = "{0} {1}x{2}x{3} ta={4} tb={5}")
  @MethodSource("cases")
  void dgemm_randomMatrices_matchesReference(Kernel kernel, int m, int n, int k, boolean ta,
      boolean tb) {
    assumeThat(Gemm.isAvailable(kernel)).as(kernel + " available").isTrue();
    SplittableRandom rnd = new SplittableRandom(m * 17 + n * 5 + k);
    double[] a = widen(random(rnd, m * k));
    double[] b = widen(random(rnd, k * n));
    double[] ref = reference(ta, tb, m, n, k, a, b);
    double[] c = new double[m * n];
    Arrays.fill(c, 99.0);
    Gemm.dgemm(kernel, ta, tb, m, n, k, a, b, c);
    for (int i = 0; i < c.length; i++) {
      assertThat(c[i]).as("c[%d]", i).isCloseTo(ref[i], Offset.offset(1e-12 * (1 + k)));
    }
  }

  @Test
  void sgemm_openBlasAndVector_agree() {
    assumeThat(Gemm.isAvailable(Kernel.OPENBLAS) && Gemm.isAvailable(Kernel.VECTOR)).isTrue();
    SplittableRandom rnd = new SplittableRandom(7);
    int m = 32;
    int n = 200;
    int k = 784;
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] blas = new float[m * n];
    float[] vec = new float[m * n];
    Gemm.sgemm(Kernel.OPENBLAS, false, false, m, n, k, a, b, blas);
    Gemm.sgemm(Kernel.VECTOR, false, false, m, n, k, a, b, vec);
    for (int i = 0; i < blas.length; i++) {
      assertThat(blas[i]).as("c[%d]", i).isCloseTo(vec[i], Offset.offset(1e-3f));
    }
  }

  @Test
  void dgemm_known2x2_isExact() {
    double[] c = new double[4];
    Gemm.dgemm(false, false, 2, 2, 2, new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}, c);
    assertThat(c).containsExactly(19, 22, 43, 50);
  }

  @ParameterizedTest
  @EnumSource(Kernel.class)
  void sgemm_arraysTooSmall_throwsNamingSizes(Kernel kernel) {
    assertThatThrownBy(() -> Gemm.sgemm(kernel, false, false, 2, 3, 4, new float[7],
        new float[12], new float[6]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2x4 by 4x3");
  }

  @Test
  void isAvailable_openBlasUnderSurefireOnLinuxX64_isTrue() {
    // tributary-graph's pom brings the OpenBLAS natives on Linux x86-64; a build there that ends up
    // without them would silently lose the opt-in kernel, so fail instead.
    assumeThat(System.getProperty("os.name")).isEqualTo("Linux");
    assumeThat(System.getProperty("os.arch")).isEqualTo("amd64");
    assertThat(Gemm.unavailableReason(Kernel.OPENBLAS)).isEmpty();
  }

  @Test
  @SuppressWarnings("deprecation")
  void kernel_openBlasAvailableAndPropertySet_staysTheVectorApiKernel() {
    // OpenBLAS is loaded here (native access is on), and the property that used to choose it is
    // set, yet the default stays on the Java kernels: only a run's GemmKernel chooses OpenBLAS.
    String before = System.getProperty("tributary.gemm");
    System.setProperty("tributary.gemm", "openblas");
    try {
      assertThat(Gemm.kernel()).isEqualTo(Kernel.VECTOR);
      assertThat(Gemm.kernelName()).isEqualTo("java");
      assertThat(new GraphExecutor(new io.tributary.graph.GraphBuilder().build()).gemmKernel())
          .isEqualTo(GemmKernel.JAVA);
    } finally {
      if (before == null) {
        System.clearProperty("tributary.gemm");
      } else {
        System.setProperty("tributary.gemm", before);
      }
    }
  }

  static Stream<Arguments> javaKernelCases() {
    Stream.Builder<Arguments> s = Stream.builder();
    for (int[] d : MNK) {
      for (int t = 0; t < 4; t++) {
        s.add(Arguments.of(d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0));
      }
    }
    // k past one 256-step block of the Vector API kernel, and a ragged last panel and strip.
    s.add(Arguments.of(9, 37, 700, false, false));
    s.add(Arguments.of(70, 21, 513, true, false));
    // Tiles of 8 rows (512-bit vectors) with a last strip of 2 (the 4-row tile) and of 6 rows,
    // and columns past one packed block of B (512 columns), its last panel ragged.
    for (int[] d : new int[][] {{10, 200, 784}, {14, 600, 300}, {21, 530, 270}, {8, 33, 5}}) {
      for (int t = 0; t < 4; t++) {
        s.add(Arguments.of(d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0));
      }
    }
    return s.build();
  }

  @ParameterizedTest
  @MethodSource("javaKernelCases")
  void sgemm_vectorAndPortable_giveIdenticalBits(int m, int n, int k, boolean ta, boolean tb) {
    SplittableRandom rnd = new SplittableRandom(31L * m + 7L * n + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] vec = new float[m * n];
    float[] portable = new float[m * n];
    Gemm.sgemm(Kernel.VECTOR, ta, tb, m, n, k, a, b, vec);
    Gemm.sgemm(Kernel.PORTABLE, ta, tb, m, n, k, a, b, portable);
    assertThat(vec).containsExactly(portable);
  }

  /**
   * Products with a few rows or a few steps of k (a batch of one: a row vector times a weight
   * matrix, and its weight gradient, an outer product), which the portable loop computes where
   * the operands lie: the same bits as the Vector API kernel, plain and in the full BLAS form.
   */
  static Stream<Arguments> fewRowsOrSteps() {
    int[][] mnk = {{1, 10, 999}, {1, 10, 1003}, {2, 10, 998}, {3, 7, 5}, {1, 130, 257},
        {999, 10, 1}, {1001, 10, 2}, {300, 7, 3}, {257, 130, 1}, {1, 1, 1}};
    Stream.Builder<Arguments> s = Stream.builder();
    for (int[] d : mnk) {
      for (int t = 0; t < 4; t++) {
        s.add(Arguments.of(d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0));
      }
    }
    return s.build();
  }

  @ParameterizedTest(name = "{0}x{1}x{2} ta={3} tb={4}")
  @MethodSource("fewRowsOrSteps")
  void sgemm_fewRowsOrSteps_portableGivesVectorBits(int m, int n, int k, boolean ta,
      boolean tb) {
    SplittableRandom rnd = new SplittableRandom(17L * m + 5L * n + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] vec = new float[m * n];
    float[] portable = new float[m * n];
    Gemm.sgemm(Kernel.VECTOR, ta, tb, m, n, k, a, b, vec);
    Gemm.sgemm(Kernel.PORTABLE, ta, tb, m, n, k, a, b, portable);
    assertThat(portable).containsExactly(vec);
    double[] ref = reference(ta, tb, m, n, k, widen(a), widen(b));
    for (int i = 0; i < ref.length; i++) {
      assertThat((double) portable[i]).isCloseTo(ref[i], within(1e-3 * (1 + Math.abs(ref[i]))));
    }
    for (float beta : new float[] {0f, 1f, 0.5f}) {
      float[] c0 = random(rnd, m * n);
      float[] vecScaled = c0.clone();
      float[] portableScaled = c0.clone();
      Gemm.sgemm(Kernel.VECTOR, ta, tb, m, n, k, -0.25f, a, b, beta, vecScaled);
      Gemm.sgemm(Kernel.PORTABLE, ta, tb, m, n, k, -0.25f, a, b, beta, portableScaled);
      assertThat(portableScaled).as("beta %s", beta).containsExactly(vecScaled);
    }
    float[] vecOn = random(rnd, m * n);
    float[] portableOn = vecOn.clone();
    Gemm.sgemmAt(Kernel.VECTOR, true, ta, tb, m, n, k, a, 0, b, vecOn, 0);
    Gemm.sgemmAt(Kernel.PORTABLE, true, ta, tb, m, n, k, a, 0, b, portableOn, 0);
    assertThat(portableOn).containsExactly(vecOn);
  }

  @Test
  void isAvailable_vectorUnderSurefire_isTrue() {
    // The surefire argLine adds jdk.incubator.vector, so the Vector API kernel is tested too.
    assertThat(Gemm.isAvailable(Kernel.VECTOR)).isTrue();
    assertThat(Gemm.isAvailable(Kernel.PORTABLE)).isTrue();
    assertThat(Gemm.unavailableReason(Kernel.VECTOR)).isEmpty();
  }
}
