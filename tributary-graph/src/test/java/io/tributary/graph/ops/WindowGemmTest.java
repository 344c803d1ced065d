package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WindowGemm} against a straightforward loop, bit for bit, on the Vector API and in plain
 * loops: odd row counts (tiles past the last row), columns that are no whole number of vectors,
 * steps of k over several blocks, and rows and steps that overlap in the source.
 */
class WindowGemmTest {
  static Stream<Arguments> shapes() {
    // rows, n (columns), kn (steps of k)
    return Stream.of(
        Arguments.of(1, 1, 1),
        Arguments.of(3, 5, 7),
        Arguments.of(7, 16, 25),
        Arguments.of(64, 64, 800),
        Arguments.of(65, 32, 300),
        Arguments.of(130, 17, 129),
        Arguments.of(9, 33, 513),
        Arguments.of(70, 70, 40),
        Arguments.of(13, 8, 3),
        Arguments.of(5, 100, 1));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void multiply_anyShape_equalsTheLoopBitForBit(int rows, int n, int kn) {
    SplittableRandom rnd = new SplittableRandom(rows * 31L + n * 7L + kn);
    float[] src = new float[4096];
    for (int i = 0; i < src.length; i++) {
      src[i] = (float) rnd.nextDouble(-2, 2);
    }
    int[] rowAt = new int[rows];
    for (int i = 0; i < rows; i++) {
      rowAt[i] = rnd.nextInt(0, 2048);
    }
    int[] kAt = new int[kn];
    for (int k = 0; k < kn; k++) {
      kAt[k] = rnd.nextInt(0, 2048);
    }
    int ldb = n + 3;
    float[] b = new float[kn * ldb];
    for (int i = 0; i < b.length; i++) {
      b[i] = (float) rnd.nextDouble(-2, 2);
    }
    int ldc = n + 2;
    // The rows [first, first + rows) of a larger C: the rest must stay as it was.
    int first = 3;
    float[] expected = new float[(first + rows + 2) * ldc];
    java.util.Arrays.fill(expected, 7f);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < n; j++) {
        float s = 0f;
        for (int k = 0; k < kn; k++) {
          s = Math.fma(src[rowAt[i] + kAt[k]], b[k * ldb + j], s);
        }
        expected[(first + i) * ldc + j] = s;
      }
    }

    for (boolean vector : new boolean[] {false, true}) {
      if (vector) {
        assumeTrue(Gemm.isAvailable(Gemm.Kernel.VECTOR), "the Vector API module is not present");
      }
      // The default blocks of k, the filter gradient's, and blocks of 16 steps.
      for (int bFloats : new int[] {WindowGemm.B_BLOCK_FLOATS,
          WindowGemm.B_BLOCK_FLOATS_STRIDED_A, 16}) {
        float[] c = new float[expected.length];
        java.util.Arrays.fill(c, 7f);
        int[] finished = new int[1];
        WindowGemm.multiply(vector, src, (into, from, count) -> System.arraycopy(rowAt,
            from - first, into, 0, count), first, first + rows,
            (into, from, count) -> System.arraycopy(kAt, from, into, 0, count), kn, b, ldb, c,
            ldc, n, (from, count) -> {
              assertThat(from).isEqualTo(first + finished[0]);
              finished[0] += count;
            }, bFloats);
        assertThat(c).as((vector ? "vector" : "portable") + ", B blocks of " + bFloats)
            .isEqualTo(expected);
        assertThat(finished[0]).as("rows finished").isEqualTo(rows);
      }
    }
  }
}
