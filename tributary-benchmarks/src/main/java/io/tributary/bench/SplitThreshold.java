package io.tributary.bench;

import io.tributary.graph.ops.Gemm;
import io.tributary.graph.ops.GemmKernel;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Whether splitting a float32 product over two threads pays, shape by shape: the FedAvg 2NN's
 * products at batch 32 and a ladder of batch-sized products from the smallest that {@link Gemm}
 * splits (2^19 multiply-adds) up. For each shape, rounds alternate one and two threads ({@link
 * GemmKernel#DEFAULT} with {@link GemmKernel#withThreads(int)}), each round a few thousand calls of
 * {@code c = 0.5 op(a) op(b) + c} (the form a gradient accumulates in); prints one JSON line per
 * shape with the median and the 10th percentile of microseconds per call at each thread count.
 * Where two threads are not faster at the smallest shapes, the split threshold is too low.
 *
 * <p>Run it on an otherwise idle machine with at least two cores, with {@code --add-modules
 * jdk.incubator.vector} for the Vector API kernel: {@code java --add-modules jdk.incubator.vector
 * -cp tributary-benchmarks/target/benchmarks.jar io.tributary.bench.SplitThreshold [ROUNDS]}.
 */
public final class SplitThreshold {
  /** m, n, k, transpose a, transpose b. */
  private static final int[][] SHAPES = {
      // The 2NN's step: forward 1 and 2, input gradient 2, weight gradients 1 and 2.
      {32, 200, 784, 0, 0}, {32, 200, 200, 0, 0}, {32, 200, 200, 0, 1}, {784, 200, 32, 1, 0},
      {200, 200, 32, 1, 0},
      // The smallest products that are split (2^19 multiply-adds), then larger.
      {32, 128, 128, 0, 0}, {128, 128, 32, 1, 0}, {32, 64, 256, 0, 0}, {32, 160, 160, 0, 0},
      {160, 160, 32, 1, 0}, {64, 256, 256, 0, 0}};
  private static final long NANOS_PER_ROUND = 200_000_000L;

  private SplitThreshold() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    for (int[] s : SHAPES) {
      System.out.println(measure(s[0], s[1], s[2], s[3] == 1, s[4] == 1, rounds));
    }
  }

  private static String measure(int m, int n, int k, boolean ta, boolean tb, int rounds) {
    SplittableRandom rnd = new SplittableRandom(m * 31L + n * 7L + k);
    float[] a = random(rnd, m * k);
    float[] b = random(rnd, k * n);
    float[] c = new float[m * n];
    long macs = (long) m * n * k;
    int calls = (int) Math.max(100, Math.min(100_000, NANOS_PER_ROUND / Math.max(1, macs / 40)));
    long[][] samples = new long[2][rounds * calls];
    for (int r = -1; r < rounds; r++) {
      for (int t = 1; t <= 2; t++) {
        GemmKernel kernel = GemmKernel.DEFAULT.withThreads(t);
        for (int i = 0; i < calls; i++) {
          long t0 = System.nanoTime();
          Gemm.sgemm(kernel, ta, tb, m, n, k, 0.5f, a, b, 1f, c);
          long dt = System.nanoTime() - t0;
          if (r >= 0) {
            samples[t - 1][r * calls + i] = dt;
          }
        }
        // Keeps the sums bounded over many accumulations.
        Arrays.fill(c, 0f);
      }
    }
    Arrays.sort(samples[0]);
    Arrays.sort(samples[1]);
    double med1 = samples[0][samples[0].length / 2] / 1e3;
    double med2 = samples[1][samples[1].length / 2] / 1e3;
    return String.format(Locale.ROOT, "{\"m\": %d, \"n\": %d, \"k\": %d, \"ta\": %b, \"tb\": %b,"
        + " \"macs\": %d, \"t1_median_us\": %.2f, \"t2_median_us\": %.2f, \"t1_p10_us\": %.2f,"
        + " \"t2_p10_us\": %.2f, \"speedup_median\": %.2f, \"kernel\": \"%s\"}", m, n, k, ta, tb,
        macs, med1, med2, samples[0][samples[0].length / 10] / 1e3,
        samples[1][samples[1].length / 10] / 1e3, med1 / med2,
        GemmKernel.DEFAULT.withThreads(2));
  }

  private static float[] random(SplittableRandom rnd, int size) {
    float[] x = new float[size];
    for (int i = 0; i < size; i++) {
      x[i] = (float) rnd.nextDouble(-1, 1);
    }
    return x;
  }
}
