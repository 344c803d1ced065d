package io.tributary.bench;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The weighted mean of {@code clients} updates of {@code elements} float32 each (FedAvg's
 * aggregation), through {@code ExecutionContext.invoke}, beside a STREAM-style triad
 * ({@code a[i] = b[i] + s * c[i]} over doubles) on the same number of threads, which measures
 * the memory bandwidth the machine gives a Java program in the same run.
 *
 * <p>The triad's three arrays (160 MB each at the default size) are far beyond the caches (on
 * the reference machine 2 MiB of L2 per core, 32 MiB of L3), so it measures memory, not cache.
 * It takes 20 warm-up and 20 measured shots (about 10-30 ms each): with fewer, the first shots
 * can still run code the JIT has not finished compiling. Its fork skips building the updates.
 * How the bytes are counted: {@code scripts/aggregation_report.py}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class AggregationBenchmark {
  @Param("100")
  public int clients;

  @Param("10000000")
  public int elements;

  /** Threads for both the runtime and the triad; 0 means one per available processor. */
  @Param("0")
  public int threads;

  /** Elements per triad array: three arrays of 160 MB, far beyond any cache. */
  @Param("20000000")
  public int triadElements;

  private List<Tensor> updates;
  private List<Tensor> weights;
  private Computation weightedMean;
  private ExecutionContext context;
  private double[] a;
  private double[] b;
  private double[] c;
  private ExecutorService triadPool;
  private int n;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams benchmark) {
    n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    if (benchmark.getBenchmark().endsWith(".streamTriad")) {
      setUpTriad();
      return;
    }
    updates = new ArrayList<>();
    weights = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      updates.add(update(i));
      weights.add(Tensor.ofFloats(Shape.scalar(), 1 + new SplittableRandom(i).nextInt(1000)));
    }
    weightedMean = Federated.computation(
        Types.parse("{float32[" + elements + "]}@CLIENTS"), Types.parse("{float32}@CLIENTS"),
        Intrinsics::federatedWeightedMean);
    context = ExecutionContext.create(RuntimeOptions.defaults().withThreads(n));
  }

  private void setUpTriad() {
    a = new double[triadElements];
    b = new double[triadElements];
    c = new double[triadElements];
    java.util.Arrays.fill(b, 1.0);
    java.util.Arrays.fill(c, 2.0);
    triadPool = Executors.newFixedThreadPool(n);
  }

  private Tensor update(int client) {
    SplittableRandom r = new SplittableRandom(42 + client);
    TensorBuilder builder = TensorBuilder.allocate(DType.FLOAT32, Shape.of(elements));
    float[] block = new float[4096];
    for (ByteBuffer buf : builder.writableBuffers()) {
      FloatBuffer fb = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      while (fb.hasRemaining()) {
        int k = Math.min(block.length, fb.remaining());
        for (int j = 0; j < k; j++) {
          block[j] = (float) (r.nextDouble() * 2 - 1);
        }
        fb.put(block, 0, k);
      }
    }
    return builder.build();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (context != null) {
      context.close();
    }
    if (triadPool != null) {
      triadPool.shutdownNow();
    }
  }

  @Benchmark
  public Object weightedMean() {
    return context.invoke(weightedMean, ClientValues.of(updates), ClientValues.of(weights));
  }

  @Benchmark
  @Warmup(iterations = 20, batchSize = 1)
  @Measurement(iterations = 20, batchSize = 1)
  public double[] streamTriad() throws InterruptedException, ExecutionException {
    List<Future<?>> parts = new ArrayList<>();
    double s = 3.0;
    for (int t = 0; t < n; t++) {
      int from = (int) ((long) triadElements * t / n);
      int to = (int) ((long) triadElements * (t + 1) / n);
      parts.add(triadPool.submit(() -> {
        for (int i = from; i < to; i++) {
          a[i] = b[i] + s * c[i];
        }
      }));
    }
    for (Future<?> f : parts) {
      f.get();
    }
    return a;
  }
}
