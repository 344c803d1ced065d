package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** float32 products (Vector API or portable) against a float64 reference, over awkward sizes. */
class GemmTest {
  static Stream<Arguments> sizes() {
    Stream.Builder<Arguments> s = Stream.builder();
    int[][] mnk = {{1, 1, 1}, {6, 16, 3}, {7, 17, 5}, {32, 200, 784}, {13, 33, 300}, {5, 3, 600},
        {0, 4, 3}, {4, 0, 3}, {3, 4, 0}, {64, 64, 64}};
    for (int[] d : mnk) {
      for (int t = 0; t < 4; t++) {
        s.add(Arguments.of(d[0], d[1], d[2], (t & 1) != 0, (t & 2) != 0));
      }
    }
    return s.build();
  }

  @ParameterizedTest(name = "{0}x{1}x{2} ta={3} tb={4}")
  @MethodSource("sizes")
  void sgemm_randomMatrices_matchesFloat64Reference(int m, int n, int k, boolean ta, boolean tb) {
    SplittableRandom rnd = new SplittableRandom(m * 31 + n * 7 + k);
    float[] a = new float[m * k];
    float[] b = new float[k * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rnd.nextDouble(-1, 1);
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = (float) rnd.nextDouble(-1, 1);
    }
    double[] ref = new double[m * n];
    double[] ad = new double[a.length];
    double[] bd = new double[b.length];
    for (int i = 0; i < a.length; i++) {
      ad[i] = a[i];
    }
    for (int i = 0; i < b.length; i++) {
      bd[i] = b[i];
    }
    Gemm.dgemm(ta, tb, m, n, k, ad, bd, ref);
    float[] c = new float[m * n];
    java.util.Arrays.fill(c, 99f);
    Gemm.sgemm(ta, tb, m, n, k, a, b, c);
    for (int i = 0; i < c.length; i++) {
      assertThat((double) c[i]).isCloseTo(ref[i], org.assertj.core.data.Offset.offset(1e-4 * (1 + k / 100.0)));
    }
    if (!ta && !tb) {
      float[] s = new float[m * n];
      Gemm.sgemmScalar(m, n, k, a, b, s);
      for (int i = 0; i < s.length; i++) {
        assertThat((double) s[i]).isCloseTo(ref[i], org.assertj.core.data.Offset.offset(1e-4 * (1 + k / 100.0)));
      }
    }
  }

  @Test
  void dgemm_known2x2_isExact() {
    double[] c = new double[4];
    Gemm.dgemm(false, false, 2, 2, 2, new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}, c);
    assertThat(c).containsExactly(19, 22, 43, 50);
  }

  @Test
  void usesVectorApi_underSurefire_isTrue() {
    // The surefire argLine adds jdk.incubator.vector, so the fast kernel is the one under test.
    assertThat(Gemm.usesVectorApi()).isTrue();
  }
}
