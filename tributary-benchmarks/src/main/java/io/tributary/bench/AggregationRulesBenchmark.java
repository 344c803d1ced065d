package io.tributary.bench;

import io.tributary.core.computation.Computation;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.learning.aggregation.Bulyan;
import io.tributary.learning.aggregation.ClientUpdates;
import io.tributary.learning.aggregation.CoordinateMedian;
import io.tributary.learning.aggregation.Krum;
import io.tributary.learning.aggregation.TrimmedMean;
import io.tributary.learning.aggregation.UnweightedMean;
import io.tributary.learning.aggregation.WeightedMean;
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

/**
 * One round's aggregation of {@code clients} updates of {@code elements} float32 each (one
 * layer) by every aggregation rule (the arithmetic alone: {@link WeightedMean#of},
 * {@link UnweightedMean#of} and each whole-round rule's {@code aggregate}, on a
 * {@link ClientUpdates} built before timing), and the whole federated path through
 * {@code ExecutionContext.invoke} of the weighted mean and median aggregators' computations.
 * Compared with {@code scripts/aggregation_rules_anchor.py}, numpy versions of Flower's
 * functions on the same shapes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, batchSize = 1)
@Measurement(iterations = 5, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class AggregationRulesBenchmark {
  @Param("100")
  public int clients;

  @Param("1000000")
  public int elements;

  /** Krum's, Multi-Krum's and Bulyan's number of Byzantine clients. */
  @Param("10")
  public int f;

  /** Multi-Krum's number of updates averaged. */
  @Param("50")
  public int m;

  /** The trimmed mean's fraction cut from each end. */
  @Param("0.2")
  public double beta;

  private ClientUpdates updates;
  private List<StructValue> models;
  private List<Tensor> examples;
  private Computation federatedWeightedMean;
  private Computation federatedMedian;
  private ExecutionContext context;

  @Setup(Level.Trial)
  public void setUp() {
    List<List<Tensor>> layers = new ArrayList<>();
    long[] counts = new long[clients];
    models = new ArrayList<>();
    examples = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Tensor t = update(i);
      layers.add(List.of(t));
      models.add(StructValue.of(t));
      counts[i] = 1 + new SplittableRandom(i).nextInt(1000);
      examples.add(Tensor.ofLongs(Shape.scalar(), counts[i]));
    }
    updates = new ClientUpdates(layers, counts);
    StructType model = StructType.of(TensorType.of(DType.FLOAT32, elements));
    federatedWeightedMean = new WeightedMean().create(model).next();
    federatedMedian = new CoordinateMedian().create(model).next();
    context = ExecutionContext.create(RuntimeOptions.defaults());
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
    context.close();
  }

  @Benchmark
  public Object weightedMean() {
    return WeightedMean.of(updates);
  }

  @Benchmark
  public Object mean() {
    return UnweightedMean.of(updates);
  }

  @Benchmark
  public Object median() {
    return new CoordinateMedian().aggregate(updates);
  }

  @Benchmark
  public Object trimmedMean() {
    return new TrimmedMean(beta).aggregate(updates);
  }

  @Benchmark
  public Object krum() {
    return new Krum(f, 0).aggregate(updates);
  }

  @Benchmark
  public Object multiKrum() {
    return new Krum(f, m).aggregate(updates);
  }

  @Benchmark
  public Object bulyan() {
    return new Bulyan(f).aggregate(updates);
  }

  @Benchmark
  public Object federatedWeightedMean() {
    return context.invoke(federatedWeightedMean, ClientValues.of(models),
        ClientValues.of(examples));
  }

  @Benchmark
  public Object federatedMedian() {
    return context.invoke(federatedMedian, ClientValues.of(models), ClientValues.of(examples));
  }
}
