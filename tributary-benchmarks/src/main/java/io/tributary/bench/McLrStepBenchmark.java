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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The local step of the FedProx paper's Synthetic(1,1) protocol: softmax regression 60 -> 10
 * ({@code mclr}), batches of 10, SGD lr 0.01 applied inside the compiled step, single-threaded,
 * through the graph runtime (forward, autodiff-built backward, fused update). Reported per step,
 * so it is the figure that bounds {@code tributary simulate}'s speed on that protocol
 * (docs/benchmarks.md, "Simulation"); {@code scripts/fedprox_numpy.py} times numpy's same step.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class McLrStepBenchmark {
  private static final int STEPS = 1000;
  private static final int BATCH = 10;

  private Trainer trainer;
  private final List<NdArray> xs = new ArrayList<>();
  private final List<NdArray> ys = new ArrayList<>();

  @Setup
  public void setup() {
    Model model = Models.mclr();
    trainer = Trainer.forModel(model, new Sgd(0.01), model.initialParameters(0));
    SplittableRandom rnd = new SplittableRandom(1);
    for (int s = 0; s < STEPS; s++) {
      float[] x = new float[BATCH * 60];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextGaussian();
      }
      long[] y = new long[BATCH];
      for (int i = 0; i < BATCH; i++) {
        y[i] = rnd.nextInt(10);
      }
      xs.add(NdArray.wrapFloats(new int[] {BATCH, 60}, x));
      ys.add(NdArray.wrapLongs(DType.INT64, new int[] {BATCH}, y));
    }
  }

  /** One pass over the 1,000 batches; JMH divides by the steps. */
  @Benchmark
  @OperationsPerInvocation(STEPS)
  public double step() {
    double loss = 0;
    for (int i = 0; i < STEPS; i++) {
      loss += trainer.trainBatch(xs.get(i), ys.get(i));
    }
    return loss;
  }
}
