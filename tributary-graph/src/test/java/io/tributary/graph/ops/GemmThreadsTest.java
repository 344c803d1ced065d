package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.ops.Gemm.Kernel;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Products split over threads, and products continued chunk by chunk: the same bits as one call. */
class GemmThreadsTest {
  private static float[] random(long seed, int size) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] x = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }

  @ParameterizedTest
  @CsvSource({"32, 200, 784, false, false", "784, 200, 32, true, false", "32, 784, 200, false, true",
      "129, 67, 301, true, true", "512, 512, 512, false, false", "7, 300, 400, false, false",
      // A batch's few rows split over threads by columns (Gemm.splitsColumns), ragged ends.
      "48, 97, 130, true, false", "64, 200, 200, false, true", "32, 65, 300, false, false",
      // The FedAvg 2NN's step (batch 32): forward, input gradients, weight gradients.
      "32, 200, 200, false, false", "32, 10, 200, false, false", "32, 200, 200, false, true",
      "32, 200, 10, false, true", "200, 200, 32, true, false", "200, 10, 32, true, false",
      // A ragged last batch of the 2NN's epoch (10,000 = 312 x 32 + 16).
      "16, 200, 784, false, false", "784, 200, 16, true, false",
      // The FedAvg CNN's dense layer (batch 32, 3136 to 512) and rows past tiles of 8 and 4.
      "32, 512, 3136, false, false", "32, 3136, 512, false, true", "3136, 512, 32, true, false",
      "90, 530, 70, false, false", "90, 530, 70, true, true"})
  void sgemm_anyThreadCount_givesTheBitsOfOneThread(int m, int n, int k, boolean ta, boolean tb) {
    float[] a = random(1, m * k);
    float[] b = random(2, k * n);
    float[] c = random(3, m * n);
    float[] scaledVector = c.clone();
    float[] scaledPortable = c.clone();
    Gemm.sgemm(GemmKernel.of(Kernel.VECTOR), ta, tb, m, n, k, 0.25f, a, b, -2f, scaledVector);
    Gemm.sgemm(GemmKernel.of(Kernel.PORTABLE), ta, tb, m, n, k, 0.25f, a, b, -2f, scaledPortable);
    assertThat(scaledPortable).isEqualTo(scaledVector);
    for (Kernel impl : List.of(Kernel.VECTOR, Kernel.PORTABLE)) {
      float[] one = new float[m * n];
      Gemm.sgemm(GemmKernel.of(impl), ta, tb, m, n, k, a, b, one);
      for (int threads = 2; threads <= 5; threads++) {
        GemmKernel kernel = GemmKernel.of(impl).withThreads(threads);
        float[] many = new float[m * n];
        Gemm.sgemm(kernel, ta, tb, m, n, k, a, b, many);
        assertThat(many).as("%s", kernel).isEqualTo(one);

        float[] scaledOne = c.clone();
        float[] scaledMany = c.clone();
        Gemm.sgemm(GemmKernel.of(impl), ta, tb, m, n, k, -0.5f, a, b, 1f, scaledOne);
        Gemm.sgemm(kernel, ta, tb, m, n, k, -0.5f, a, b, 1f, scaledMany);
        assertThat(scaledMany).as("scaled on %s", kernel).isEqualTo(scaledOne);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"VECTOR, false", "VECTOR, true", "PORTABLE, false", "PORTABLE, true"})
  void sgemmAt_kSplitOverCalls_givesTheBitsOfOneCall(Kernel impl, boolean ta) {
    int m = 37;
    int n = 45;
    int k = 613;
    float[] a = random(4, m * k + 9);
    float[] b = random(5, k * n);
    float[] whole = new float[m * n + 3];
    // a at offset 9 holds [m, k], or [k, m] when transposed.
    Gemm.sgemmAt(impl, false, ta, false, m, n, k, a, 9, b, whole, 3);

    float[] parts = new float[m * n + 3];
    int split = 300;
    float[] a1 = new float[split * (ta ? m : 1) * (ta ? 1 : 1) + (ta ? 0 : m * split)];
    float[] a2 = new float[(k - split) * m];
    for (int i = 0; i < m; i++) {
      for (int p = 0; p < k; p++) {
        float v = ta ? a[9 + p * m + i] : a[9 + i * k + p];
        if (p < split) {
          a1[ta ? p * m + i : i * split + p] = v;
        } else {
          a2[ta ? (p - split) * m + i : i * (k - split) + p - split] = v;
        }
      }
    }
    float[] b1 = java.util.Arrays.copyOfRange(b, 0, split * n);
    float[] b2 = java.util.Arrays.copyOfRange(b, split * n, k * n);
    Gemm.sgemmAt(impl, false, ta, false, m, n, split, a1, 0, b1, parts, 3);
    Gemm.sgemmAt(impl, true, ta, false, m, n, k - split, a2, 0, b2, parts, 3);

    assertThat(parts).isEqualTo(whole);
    float[] reference = new float[m * n];
    Gemm.sgemm(GemmKernel.of(impl), ta, false, m, n, k,
        java.util.Arrays.copyOfRange(a, 9, 9 + m * k), b, reference);
    assertThat(java.util.Arrays.copyOfRange(whole, 3, 3 + m * n)).isEqualTo(reference);
  }

  @Test
  void sgemm_callersOnManyThreadsAtOnce_eachGetsTheBitsOfOneThread() throws Exception {
    // More callers than the one worker team: those that find it busy split over the common pool.
    int m = 32;
    int n = 200;
    int k = 784;
    float[] a = random(6, m * k);
    float[] b = random(7, k * n);
    float[] one = new float[m * n];
    Gemm.sgemm(GemmKernel.of(Kernel.PORTABLE), false, false, m, n, k, a, b, one);
    java.util.concurrent.ExecutorService callers =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<float[]>> results = new java.util.ArrayList<>();
      for (int caller = 0; caller < 4; caller++) {
        Kernel impl = caller % 2 == 0 ? Kernel.VECTOR : Kernel.PORTABLE;
        GemmKernel kernel = GemmKernel.of(impl).withThreads(2 + caller % 2);
        results.add(callers.submit(() -> {
          float[] c = new float[m * n];
          for (int r = 0; r < 50; r++) {
            Gemm.sgemm(kernel, false, false, m, n, k, a, b, c);
            if (!java.util.Arrays.equals(c, one)) {
              return c;
            }
          }
          return c;
        }));
      }
      for (java.util.concurrent.Future<float[]> f : results) {
        assertThat(f.get()).isEqualTo(one);
      }
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void withThreads_outOfRange_failsNamingTheBounds() {
    assertThatThrownBy(() -> GemmKernel.JAVA.withThreads(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 1 and 256, got 0");
    assertThat(GemmKernel.JAVA.withThreads(1)).isSameAs(GemmKernel.JAVA);
    assertThat(GemmKernel.JAVA.withThreads(2).threads()).isEqualTo(2);
    assertThat(GemmKernel.JAVA.withThreads(2)).isNotEqualTo(GemmKernel.JAVA);
    assertThat(GemmKernel.JAVA.withThreads(2).name()).isEqualTo("java");
  }
}
