package io.tributary.bench;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Sgd;
import io.tributary.graph.training.Trainer;
import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One training epoch of the FedAvg 2NN (784-200-200-10, ReLU, mean sparse softmax cross-entropy,
 * SGD lr 0.01) over 10,000 random 784-dim samples in batches of 32, single-threaded, through the
 * graph runtime: forward, autodiff-built backward, and the optimizer step. The numpy anchor
 * ({@code scripts/graph_anchor.py}) does the same arithmetic.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED"})
public class TwoNnEpochBenchmark {
  private static final int SAMPLES = 10_000;
  private static final int BATCH = 32;

  private Trainer trainer;
  private final List<NdArray> xs = new ArrayList<>();
  private final List<NdArray> ys = new ArrayList<>();

  @Setup
  public void setup() {
    Model model = Models.fedAvg2nn();
    trainer = Trainer.forModel(model, new Sgd(0.01), model.initialParameters(0));
    SplittableRandom rnd = new SplittableRandom(1);
    for (int start = 0; start < SAMPLES; start += BATCH) {
      int n = Math.min(BATCH, SAMPLES - start);
      float[] x = new float[n * 784];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextDouble();
      }
      long[] y = new long[n];
      for (int i = 0; i < n; i++) {
        y[i] = rnd.nextInt(10);
      }
      xs.add(NdArray.wrapFloats(new int[] {n, 784}, x));
      ys.add(NdArray.wrapLongs(DType.INT64, new int[] {n}, y));
    }
  }

  @Benchmark
  public double epoch() {
    double loss = 0;
    for (int i = 0; i < xs.size(); i++) {
      loss += trainer.trainBatch(xs.get(i), ys.get(i));
    }
    return loss;
  }
}
