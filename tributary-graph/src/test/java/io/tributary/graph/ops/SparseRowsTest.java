package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Products over the non-zero elements of sparse rows, against the dense Java kernels' bits. */
class SparseRowsTest {
  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> s = Stream.builder();
    for (int n : new int[] {1, 7, 10, 16, 17, 40}) {
      for (int m : new int[] {1, 2, 5, 6}) {
        for (int k : new int[] {1024, 4099}) {
          for (int nonZero : new int[] {1, 32, k / SparseRows.DENSITY}) {
            s.add(Arguments.of(m, n, k, nonZero));
          }
        }
      }
    }
    return s.build();
  }

  @ParameterizedTest(name = "m={0} n={1} k={2} non-zero={3}")
  @MethodSource("cases")
  void multiply_sparseRowsTimesFiniteB_sameBitsAsEachJavaKernel(int m, int n, int k,
      int nonZero) {
    SplittableRandom rnd = new SplittableRandom(1_000_003L * m + 1009L * n + 31L * k + nonZero);
    float[] a = sparseRows(rnd, m, k, nonZero);
    float[] b = finite(rnd, k * n);
    float[] sparse = new float[m * n];
    boolean taken = SparseRows.multiply(m, n, k, a, b, sparse);
    for (GemmKernel kernel : javaKernels()) {
      float[] dense = new float[m * n];
      Gemm.sgemm(kernel, false, false, m, n, k, a, b, dense);
      if (taken) {
        assertBits(sparse, dense, kernel + " (sparse)");
      }
      NdArray c = MatMulOp.multiply(kernel, NdArray.wrapFloats(new int[] {m, k}, a),
          NdArray.wrapFloats(new int[] {k, n}, b).assumingFinite(), false, false, null);
      assertBits(c.floats(), dense, kernel + " (matmul)");
    }
    // With finite sums away from zero the sparse path is the one taken.
    float[] plain = sparseRows(new SplittableRandom(7), m, k, nonZero);
    for (int i = 0; i < plain.length; i++) {
      plain[i] = plain[i] == 0f ? 0f : 1f;
    }
    float[] ones = new float[k * n];
    java.util.Arrays.fill(ones, 0.5f);
    assertThat(SparseRows.multiply(m, n, k, plain, ones, new float[m * n])).isTrue();
  }

  @Test
  void multiply_sumUnderflowsToNegativeZeroBeforeAZeroStep_leftToTheDenseKernel() {
    int k = 2048;
    int n = 10;
    float[] a = new float[k];
    float[] b = new float[k * n];
    // Step 3: -1e-30 x 1e-30 rounds to -0 in every column; step 9: 0 x 1 turns -0 into +0 in
    // the dense chain, which a chain over the non-zero steps alone would not.
    a[3] = -1e-30f;
    for (int j = 0; j < n; j++) {
      b[3 * n + j] = 1e-30f;
      b[9 * n + j] = 1f;
    }
    float[] dense = new float[n];
    Gemm.sgemm(Gemm.Kernel.PORTABLE, false, false, 1, n, k, a, b, dense);
    assertThat(Float.floatToRawIntBits(dense[0])).isEqualTo(Float.floatToRawIntBits(0f));
    assertThat(SparseRows.multiply(1, n, k, a, b, new float[n])).isFalse();
    NdArray c = MatMulOp.multiply(GemmKernel.JAVA, NdArray.wrapFloats(new int[] {1, k}, a),
        NdArray.wrapFloats(new int[] {k, n}, b).assumingFinite(), false, false, null);
    assertBits(c.floats(), dense, "matmul");
  }

  @Test
  void multiply_rowDenserThanTheLimit_returnsFalse() {
    int k = 1024;
    float[] a = sparseRows(new SplittableRandom(3), 1, k, k / SparseRows.DENSITY + 1);
    float[] b = new float[k * 4];
    java.util.Arrays.fill(b, 1f);
    assertThat(SparseRows.multiply(1, 4, k, a, b, new float[4])).isFalse();
  }

  @Test
  void multiply_shortRows_returnsFalse() {
    int k = SparseRows.MIN_K - 1;
    float[] a = new float[k];
    a[0] = 1f;
    assertThat(SparseRows.multiply(1, 2, k, a, new float[2 * k], new float[2])).isFalse();
  }

  @Test
  void assumingFinite_sharesStorageAndMarksOnlyTheView() {
    NdArray a = NdArray.wrapFloats(new int[] {2, 3}, new float[6]);
    NdArray v = a.assumingFinite();
    assertThat(v.assumedFinite()).isTrue();
    assertThat(a.assumedFinite()).isFalse();
    assertThat(v.sharesStorage(a)).isTrue();
    assertThat(v.shape()).isEqualTo(a.shape());
    assertThat(v.assumingFinite()).isSameAs(v);
    assertThat(v.copy().assumedFinite()).isFalse();
    assertThat(v.reshape(3, 2).assumedFinite()).isFalse();
  }

  private static List<GemmKernel> javaKernels() {
    List<GemmKernel> out = new ArrayList<>();
    out.add(GemmKernel.of(Gemm.Kernel.PORTABLE));
    if (Gemm.isAvailable(Gemm.Kernel.VECTOR)) {
      out.add(GemmKernel.of(Gemm.Kernel.VECTOR));
    }
    return out;
  }

  /**
   * Rows of {@code nonZero} non-zero elements each, at random places: mostly ordinary values,
   * some subnormal, infinite or NaN; the zeros a mix of +0 and -0.
   */
  private static float[] sparseRows(SplittableRandom rnd, int m, int k, int nonZero) {
    float[] a = new float[m * k];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextInt(4) == 0 ? -0f : 0f;
    }
    for (int i = 0; i < m; i++) {
      for (int placed = 0; placed < nonZero; ) {
        int p = i * k + rnd.nextInt(k);
        if (a[p] != 0f) {
          continue;
        }
        int kind = rnd.nextInt(40);
        a[p] = switch (kind) {
          case 0 -> Float.MIN_VALUE * (1 + rnd.nextInt(100));
          case 1 -> Float.POSITIVE_INFINITY;
          case 2 -> Float.NaN;
          case 3 -> -1e-30f;
          default -> (float) (rnd.nextDouble() * 4 - 2);
        };
        placed++;
      }
    }
    return a;
  }

  /** Finite elements: ordinary values, signed zeros, subnormals, and some near the top. */
  private static float[] finite(SplittableRandom rnd, int size) {
    float[] b = new float[size];
    for (int i = 0; i < size; i++) {
      int kind = rnd.nextInt(50);
      b[i] = switch (kind) {
        case 0 -> 0f;
        case 1 -> -0f;
        case 2 -> -Float.MIN_VALUE * (1 + rnd.nextInt(100));
        case 3 -> 3e38f;
        case 4 -> 1e-30f;
        default -> (float) (rnd.nextDouble() * 2 - 1);
      };
    }
    return b;
  }

  /** Equal bits, NaNs compared as NaN (their payloads are the hardware's). */
  private static void assertBits(float[] actual, float[] expected, String what) {
    for (int i = 0; i < expected.length; i++) {
      assertThat(Float.floatToIntBits(actual[i])).as("%s element %d: %s vs %s", what, i,
          actual[i], expected[i]).isEqualTo(Float.floatToIntBits(expected[i]));
    }
  }
}
