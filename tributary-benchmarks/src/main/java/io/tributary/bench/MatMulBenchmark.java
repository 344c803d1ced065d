package io.tributary.bench;

import io.tributary.graph.ops.Gemm;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * float32 matrix product C = A B with A, B and C all size x size, single-threaded, on each {@link
 * Gemm.Kernel}: {@code openblas} (the opt-in {@code GemmKernel.OPENBLAS}; OpenBLAS held to one
 * thread), {@code vector} (the Vector API kernel, what {@code GemmKernel.JAVA} runs on where the
 * module is present) and {@code portable} (the plain loop, the same bits as {@code vector}).
 * GFLOPS = 2 size^3 / time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED"})
public class MatMulBenchmark {
  @Param({"512"})
  public int size;

  @Param({"openblas", "vector", "portable"})
  public String kernel;

  private Gemm.Kernel impl;
  private float[] a;
  private float[] b;
  private float[] c;

  @Setup
  public void setup() {
    impl = Gemm.Kernel.valueOf(kernel.toUpperCase(java.util.Locale.ROOT));
    Gemm.unavailableReason(impl).ifPresent(why -> {
      throw new IllegalStateException(kernel + ": " + why);
    });
    SplittableRandom rnd = new SplittableRandom(42);
    a = new float[size * size];
    b = new float[size * size];
    c = new float[size * size];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rnd.nextDouble(-1, 1);
      b[i] = (float) rnd.nextDouble(-1, 1);
    }
  }

  @Benchmark
  public float[] matmul() {
    Gemm.sgemm(impl, false, false, size, size, size, a, b, c);
    return c;
  }
}
