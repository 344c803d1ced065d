package io.tributary.bench;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * The float64 sum of {@code clients} one-step updates of a [{@code rows}, {@code cols}] layer
 * ({@link Tensor#rankOneStep}: what a population-scale client of one example sends), summed into
 * 256 KB pieces as a pass's partial sum keeps them, {@code perCall} updates per {@link
 * TensorMath#addScaled(List, double[], double[], long)} call: 8 is a pass's batch, whose steps of
 * one start are summed in one sweep; 1 reads and writes the sums once per update. The score is per
 * sum of all {@code clients}; divided by {@code clients * rows * cols} it is the time an element
 * of one update costs.
 *
 * <p>Run with {@code --add-modules jdk.incubator.vector} (the fork adds it): without the module
 * the sum runs its scalar loops.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class RankOneSumBenchmark {
  /** Doubles per piece of the sums, as {@code LinearAccumulator} keeps them. */
  private static final int PIECE = 1 << 15;

  @Param("99999")
  public int rows;

  @Param("10")
  public int cols;

  @Param("8")
  public int clients;

  @Param({"1", "8"})
  public int perCall;

  private float[] start;
  private float[][] u;
  private float[][] v;
  private double[][] pieces;
  private double[] weights;

  @Setup
  public void setUp() {
    SplittableRandom rnd = new SplittableRandom(1);
    start = new float[rows * cols];
    for (int i = 0; i < start.length; i++) {
      start[i] = (float) (rnd.nextGaussian() * 0.01);
    }
    u = new float[clients][rows];
    v = new float[clients][cols];
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < rows; i++) {
        u[c][i] = (float) rnd.nextDouble();
      }
      for (int j = 0; j < cols; j++) {
        v[c][j] = (float) rnd.nextGaussian();
      }
    }
    int n = rows * cols;
    pieces = new double[(n + PIECE - 1) / PIECE][];
    for (int p = 0; p < pieces.length; p++) {
      pieces[p] = new double[Math.min(PIECE, n - p * PIECE)];
    }
    weights = new double[perCall];
    Arrays.fill(weights, 1.0);
  }

  /** Every client's update added into the sums, {@code perCall} at a time. */
  @Benchmark
  public double[][] sum() {
    for (int first = 0; first < clients; first += perCall) {
      List<Tensor> steps = new ArrayList<>(perCall);
      for (int c = first; c < first + perCall && c < clients; c++) {
        steps.add(Tensor.rankOneStep(start, u[c], v[c], -0.1f, true));
      }
      double[] w = steps.size() == perCall ? weights : Arrays.copyOf(weights, steps.size());
      long off = 0;
      for (double[] piece : pieces) {
        TensorMath.addScaled(steps, w, piece, off);
        off += piece.length;
      }
    }
    return pieces;
  }
}
