package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RankOneTest {
  /** The general few-steps loop for k = 1, as the portable kernel ran it before RankOne. */
  private static void generalLoop(int n, boolean ta, boolean tb, int m, float[] a, float[] b,
      float[] c, boolean accumulate, float alpha, float beta, boolean scaled) {
    int k = 1;
    for (int i = 0; i < m; i++) {
      int ci = i * n;
      for (int j = 0; j < n; j++) {
        float s = accumulate ? c[ci + j] : 0f;
        for (int p = 0; p < k; p++) {
          float av = ta ? a[p * m + i] : a[i * k + p];
          s = Math.fma(av, tb ? b[j * k + p] : b[p * n + j], s);
        }
        c[ci + j] = scaled ? Gemm.combine(s, alpha, beta, c[ci + j]) : s;
      }
    }
  }

  /** Values with signed zeros, tiny and huge magnitudes, where a changed operation shows. */
  private static float[] values(SplittableRandom rnd, int size) {
    float[] special = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 1e30f, -1e30f, 1f, -1f};
    float[] v = new float[size];
    for (int i = 0; i < size; i++) {
      v[i] = rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)]
          : (float) rnd.nextGaussian();
    }
    return v;
  }

  @Test
  void rows_everyFlagAndLayout_givesTheGeneralLoopsBits() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int[] mn : new int[][] {{1, 1}, {7, 10}, {33, 3}, {500, 10}, {64, 17}}) {
      int m = mn[0];
      int n = mn[1];
      for (int flags = 0; flags < 16; flags++) {
        boolean ta = (flags & 1) != 0;
        boolean tb = (flags & 2) != 0;
        boolean accumulate = (flags & 4) != 0;
        boolean scaled = (flags & 8) != 0;
        for (float beta : new float[] {0f, 1f, -0.5f}) {
          float[] a = values(rnd, m);
          float[] b = values(rnd, n);
          float[] c = values(rnd, m * n);
          float[] want = c.clone();
          float[] got = c.clone();
          generalLoop(n, ta, tb, m, a, b, want, accumulate, -0.01f, beta, scaled);
          RankOne.rows(n, a, 0, b, got, 0, 0, m, accumulate, -0.01f, beta, scaled);
          assertThat(bits(got)).as("m %s n %s flags %s beta %s", m, n, flags, beta)
              .containsExactly(bits(want));
        }
      }
    }
  }

  @Test
  void sgemm_outerProductOnPortable_givesTheGeneralLoopsBits() {
    SplittableRandom rnd = new SplittableRandom(9);
    int m = 1001;
    int n = 10;
    float[] a = values(rnd, m);
    float[] b = values(rnd, n);
    float[] c = values(rnd, m * n);
    float[] want = c.clone();
    float[] got = c.clone();
    generalLoop(n, true, false, m, a, b, want, false, -0.05f, 1f, true);
    Gemm.sgemm(Gemm.Kernel.PORTABLE, true, false, m, n, 1, -0.05f, a, b, 1f, got);
    assertThat(bits(got)).containsExactly(bits(want));
  }

  private static int[] bits(float[] v) {
    int[] out = new int[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Float.floatToIntBits(v[i]);
    }
    return out;
  }
}
