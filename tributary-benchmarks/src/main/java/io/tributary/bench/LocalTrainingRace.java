package io.tributary.bench;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.Gemm;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Sgd;
import io.tributary.graph.training.Trainer;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The Tributary side of the PyTorch comparison ({@code scripts/run-pytorch.sh}, anchor {@code
 * scripts/torch_anchor.py}): float32 matmul 512³, one epoch of the FedAvg 2NN and one of its CNN
 * (batch 32, SGD lr 0.01, random 28x28 samples), as a library user runs them: a plain {@code java
 * -cp} with no options, {@link GemmKernel#DEFAULT} with {@link GemmKernel#withThreads(int)}.
 * Prints one JSON object with every sample and the medians: wall-clock seconds per epoch and, as
 * {@code *_cpu_s}, the process's CPU seconds per epoch (all its threads), the figure that still
 * means something when other processes share the cores. Each case first warms up for at least
 * two seconds (a tenth of the data, repeated), as the anchor does.
 *
 * <p>Usage: {@code LocalTrainingRace THREADS REPS SAMPLES CNN_SAMPLES [CASES]}, CASES a comma list
 * of {@code matmul}, {@code 2nn} and {@code cnn} (all three by default).
 */
public final class LocalTrainingRace {
  private static final int BATCH = 32;
  private static final int MATMUL = 512;
  private static final int MATMUL_CALLS = 10;
  /**
   * The least time each case warms up before it is timed (torch_anchor.py warms up the same way):
   * with two threads busy on two cores, the JIT's compiler threads get little time, and a fixed
   * 30 products or a tenth of an epoch left the first timed repetitions at 60-75% of the steady
   * state.
   */
  private static final long WARM_UP_NANOS = 2_000_000_000L;

  private LocalTrainingRace() {}

  public static void main(String[] args) {
    if (args.length < 4) {
      System.err.println("usage: LocalTrainingRace THREADS REPS SAMPLES CNN_SAMPLES [CASES]");
      System.exit(2);
    }
    int threads = Integer.parseInt(args[0]);
    int reps = Integer.parseInt(args[1]);
    int samples = Integer.parseInt(args[2]);
    int cnnSamples = Integer.parseInt(args[3]);
    List<String> cases = List.of((args.length > 4 ? args[4] : "matmul,2nn,cnn").split(","));
    GemmKernel kernel = GemmKernel.DEFAULT.withThreads(threads);
    StringBuilder json = new StringBuilder();
    json.append("{\"side\": \"tributary\", \"threads\": ").append(kernel.threads())
        .append(", \"kernel\": \"").append(kernel).append("\", \"processors\": ")
        .append(Runtime.getRuntime().availableProcessors()).append(", \"java\": \"")
        .append(System.getProperty("java.version")).append('"');
    if (cases.contains("matmul")) {
      double[] gflops = matmul(kernel, reps);
      json.append(", \"matmul_gflops\": ").append(summary(gflops));
    }
    if (cases.contains("2nn")) {
      epochs(json, "2nn", Models.fedAvg2nn(), kernel, new int[] {784}, samples, reps);
    }
    if (cases.contains("cnn")) {
      epochs(json, "cnn", Models.fedAvgCnn(), kernel, new int[] {28, 28, 1}, cnnSamples, reps);
    }
    System.out.println(json.append('}'));
  }

  private static double[] matmul(GemmKernel kernel, int reps) {
    SplittableRandom rnd = new SplittableRandom(42);
    int size = MATMUL * MATMUL;
    float[] a = new float[size];
    float[] b = new float[size];
    float[] c = new float[size];
    for (int i = 0; i < size; i++) {
      a[i] = (float) rnd.nextDouble(-1, 1);
      b[i] = (float) rnd.nextDouble(-1, 1);
    }
    long warmStart = System.nanoTime();
    for (int i = 0; i < 3 * MATMUL_CALLS || System.nanoTime() - warmStart < WARM_UP_NANOS; i++) {
      Gemm.sgemm(kernel, false, false, MATMUL, MATMUL, MATMUL, a, b, c);
    }
    double[] gflops = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < MATMUL_CALLS; i++) {
        Gemm.sgemm(kernel, false, false, MATMUL, MATMUL, MATMUL, a, b, c);
      }
      double s = (System.nanoTime() - t0) / 1e9 / MATMUL_CALLS;
      gflops[r] = 2.0 * MATMUL * MATMUL * MATMUL / s / 1e9;
    }
    return gflops;
  }

  /**
   * One warm-up epoch on a tenth of the data, then {@code reps} timed epochs over all of it,
   * appended to {@code json} as {@code NAME_epoch_s} (wall clock) and {@code NAME_epoch_cpu_s}.
   */
  private static void epochs(StringBuilder json, String name, Model model, GemmKernel kernel,
      int[] sample, int samples, int reps) {
    Trainer trainer = new Trainer(model.graph(), model.loss(), model.input(), model.labels(),
        model.accuracy(), model.trainableNames(), new Sgd(0.01), model.initialParameters(0),
        kernel);
    int width = Arrays.stream(sample).reduce(1, (x, y) -> x * y);
    SplittableRandom rnd = new SplittableRandom(1);
    List<NdArray> xs = new ArrayList<>();
    List<NdArray> ys = new ArrayList<>();
    for (int start = 0; start < samples; start += BATCH) {
      int n = Math.min(BATCH, samples - start);
      float[] x = new float[n * width];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextDouble();
      }
      long[] y = new long[n];
      for (int i = 0; i < n; i++) {
        y[i] = rnd.nextInt(10);
      }
      int[] shape = new int[sample.length + 1];
      shape[0] = n;
      System.arraycopy(sample, 0, shape, 1, sample.length);
      xs.add(NdArray.wrapFloats(shape, x));
      ys.add(NdArray.wrapLongs(DType.INT64, new int[] {n}, y));
    }
    double loss = 0;
    long warmStart = System.nanoTime();
    do {
      for (int i = 0; i < Math.max(1, xs.size() / 10); i++) {
        loss += trainer.trainBatch(xs.get(i), ys.get(i));
      }
    } while (System.nanoTime() - warmStart < WARM_UP_NANOS);
    double[] seconds = new double[reps];
    double[] cpu = new double[reps];
    for (int r = 0; r < reps; r++) {
      long c0 = processCpuNanos();
      long t0 = System.nanoTime();
      for (int i = 0; i < xs.size(); i++) {
        loss += trainer.trainBatch(xs.get(i), ys.get(i));
      }
      seconds[r] = (System.nanoTime() - t0) / 1e9;
      cpu[r] = (processCpuNanos() - c0) / 1e9;
    }
    if (!Double.isFinite(loss)) {
      throw new IllegalStateException("training diverged: loss " + loss);
    }
    json.append(", \"").append(name).append("_epoch_s\": ").append(summary(seconds))
        .append(", \"").append(name).append("_epoch_cpu_s\": ").append(summary(cpu));
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String summary(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    StringBuilder s = new StringBuilder("{\"median\": ").append(fmt(median))
        .append(", \"samples\": [");
    for (int i = 0; i < values.length; i++) {
      s.append(i == 0 ? "" : ", ").append(fmt(values[i]));
    }
    return s.append("]}").toString();
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
