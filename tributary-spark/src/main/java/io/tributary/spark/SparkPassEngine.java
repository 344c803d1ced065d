package io.tributary.spark;

import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.PassRequest;
import io.tributary.simulation.engine.ClusterEngine;
import io.tributary.simulation.engine.Invocation;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.spark.Partitioner;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Computes a simulation's client passes on Spark: each pass is one job whose tasks compute
 * consecutive ranges of its groups on the executors, which rebuild the simulation from its
 * settings ({@link WorkerReplicas}); a second, smaller stage on the executors combines the
 * tasks' parts into one part per combined range ({@link PassLayout}: ranges aligned with the
 * pass's fixed reduction tree, as many as the executors unless set), and the runtime merges
 * those with the same tree on the driver, so the result is the local run's bits and the driver
 * receives a few parts whatever the number of tasks. A pass whose parts are small (together at most
 * {@link #SMALL_PASS_BYTES} the last time it ran) skips the second stage unless the combined parts
 * are set: its shuffle costs more than the driver's decoding of a few small parts.
 *
 * <p>A task that fails is retried by Spark ({@code spark.task.maxFailures}); a job that fails
 * anyway becomes a {@link PassEngineException} with one line naming the cause.
 */
public final class SparkPassEngine implements ClusterEngine {
  private static final Logger LOG = LoggerFactory.getLogger(SparkPassEngine.class);
  /**
   * A pass whose largest part times its tasks came to at most this many bytes the last time it
   * ran skips the second stage (with the combined parts unset): the driver then receives one part
   * per task, at most about this much. On passes of small parts (the FedProx protocol's are under
   * 1 KB) the second stage's shuffle costs more than the driver saves (docs/spark.md).
   */
  static final long SMALL_PASS_BYTES = 1L << 20;
  private final JavaSparkContext spark;
  private final byte[] settings;
  private final String settingsKey;
  private final Supplier<Invocation> current;
  private final int partitions;
  private final int combine;
  private final long smallPassBytes;
  /** Per pass (the invocation's kind and the pass's index): its largest part the last time. */
  private final Map<String, Long> largestPart = new ConcurrentHashMap<>();
  private volatile PassTraffic last;

  /**
   * What one pass moved: its tasks, the parts the driver received and their bytes.
   *
   * @param pass the pass's index within its invocation
   * @param tasks the first stage's tasks
   * @param parts the parts the driver received (the combined ranges)
   * @param driverBytes the bytes of those parts' payloads, what the driver decodes
   */
  public record PassTraffic(int pass, int tasks, int parts, long driverBytes) {}

  /**
   * An engine on {@code spark} for the simulation whose encoded settings are {@code settings},
   * combining each pass into as many parts as the application has executors.
   *
   * @param spark the context; {@link #close()} stops it
   * @param settings the {@link io.tributary.simulation.SettingsCodec} encoding of the settings
   * @param current which invocation is running when a pass is asked for
   * @param partitions the tasks per pass, or 0 for Spark's default parallelism
   */
  public SparkPassEngine(JavaSparkContext spark, byte[] settings, Supplier<Invocation> current,
      int partitions) {
    this(spark, settings, current, partitions, 0);
  }

  /**
   * Like the other constructor, combining each pass on the executors into at most
   * {@code combine} parts before the driver receives them.
   *
   * @param combine the parts the driver receives per pass at most, or 0 for the application's
   *     executor count at the time of the pass
   * @throws IllegalArgumentException when {@code combine} is negative
   */
  public SparkPassEngine(JavaSparkContext spark, byte[] settings, Supplier<Invocation> current,
      int partitions, int combine) {
    this(spark, settings, current, partitions, combine, SMALL_PASS_BYTES);
  }

  /** As the public constructors, with the bound below which a pass skips the second stage. */
  SparkPassEngine(JavaSparkContext spark, byte[] settings, Supplier<Invocation> current,
      int partitions, int combine, long smallPassBytes) {
    if (combine < 0) {
      throw new IllegalArgumentException("the combined parts per pass must be >= 0, got "
          + combine);
    }
    this.spark = spark;
    this.settings = settings.clone();
    this.settingsKey = sha256(settings);
    this.current = current;
    this.partitions = partitions > 0 ? partitions : Math.max(1, spark.defaultParallelism());
    this.combine = combine;
    this.smallPassBytes = smallPassBytes;
  }

  /** The tasks each pass is cut into (about; fewer when a pass has fewer groups). */
  public int partitions() {
    return partitions;
  }

  /** What the last pass moved, if a pass ran. */
  public java.util.Optional<PassTraffic> lastTraffic() {
    return java.util.Optional.ofNullable(last);
  }

  /** The parts a pass is combined into: the setting, or the executors registered now. */
  private int combinedParts() {
    if (combine > 0) {
      return combine;
    }
    if (spark.sc().isLocal()) {
      return 1;
    }
    // The driver's block manager is listed with the executors'.
    return Math.max(1, spark.sc().getExecutorMemoryStatus().size() - 1);
  }

  @Override
  public List<PassPart> run(PassRequest request) {
    Invocation invocation = current.get();
    if (invocation == null) {
      throw new PassEngineException("a pass was asked for outside a simulation's invocation",
          null);
    }
    // Edges that are nodes of the tree stay whole in one combined range: each edge's aggregate
    // is then completed on one executor.
    PassLayout layout = PassLayout.of(request.groups(), partitions, combinedParts(),
        request.edgeLevel().orElse(0));
    if (layout.tasks().isEmpty()) {
      return List.of();
    }
    PassJob job = new PassJob(settings, settingsKey, invocation.kind().ordinal(),
        invocation.round(), ValueCodec.encode(request.arguments().get(0)), request.pass(),
        request.earlier());
    Broadcast<PassJob> shared = spark.broadcast(job);
    try {
      JavaRDD<PartBytes> computed = spark.parallelize(layout.tasks(), layout.tasks().size())
          .map(r -> WorkerPass.compute(shared.value(), r));
      String key = invocation.kind() + "/" + request.pass();
      boolean direct = layout.single() || small(key, layout.tasks().size(), request);
      List<PartBytes> parts = collect(direct ? computed : combined(computed, layout, shared));
      List<PassPart> out = new ArrayList<>(parts.size());
      long bytes = 0;
      long largest = 0;
      for (PartBytes p : parts) {
        out.add(p.toPart());
        bytes += p.payload().length;
        largest = Math.max(largest, p.payload().length);
      }
      largestPart.put(key, largest);
      last = new PassTraffic(request.pass(), layout.tasks().size(), out.size(), bytes);
      // What the benchmarks read for the driver's traffic per pass (run-spark.sh traffic).
      LOG.debug("pass {} ({}): {} tasks, {} parts to the driver, {} bytes", request.pass(),
          describe(invocation), layout.tasks().size(), out.size(), bytes);
      return out;
    } catch (SparkException e) {
      throw new PassEngineException("the Spark job of pass " + request.pass() + " ("
          + describe(invocation) + ") failed: " + firstLine(e.getMessage()), e);
    } catch (IllegalStateException e) {
      // Spark's "Cannot call methods on a stopped SparkContext": the cluster dropped the
      // application (every executor lost, the master gone).
      throw new PassEngineException("Spark stopped the application: " + firstLine(
          e.getMessage()), e);
    } finally {
      shared.destroy();
    }
  }

  /**
   * Whether this pass skips the second stage: the combined parts are not set, no edge must be
   * completed on an executor, and its largest part the last time it ran, times its tasks now, is
   * at most {@link #smallPassBytes}. A pass not seen before is combined.
   */
  private boolean small(String key, int tasks, PassRequest request) {
    if (combine > 0 || request.edgeLevel().isPresent()) {
      return false;
    }
    Long part = largestPart.get(key);
    return part != null && part * tasks <= smallPassBytes;
  }

  /**
   * The second stage: each task's part goes to the executor task of its combined range (a
   * shuffle among the executors, sorted by group and spilled to disk where large), which folds
   * them one at a time into that range's one part.
   */
  private static JavaRDD<PartBytes> combined(JavaRDD<PartBytes> computed, PassLayout layout,
      Broadcast<PassJob> shared) {
    int shift = layout.shift();
    List<GroupRange> ranges = layout.combined();
    return computed.mapToPair(p -> new Tuple2<>(p.from(), p))
        .repartitionAndSortWithinPartitions(new RangePartitioner(ranges.size(), shift))
        .mapPartitionsWithIndex((index, parts) -> java.util.List.of(WorkerPass.combine(
            shared.value(), ranges.get(index), new java.util.Iterator<PartBytes>() {
              @Override
              public boolean hasNext() {
                return parts.hasNext();
              }

              @Override
              public PartBytes next() {
                return parts.next()._2();
              }
            })).iterator(), true);
  }

  /** Sends the part starting at group {@code g} to the combined range {@code g >> shift}. */
  private static final class RangePartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int partitions;
    private final int shift;

    RangePartitioner(int partitions, int shift) {
      this.partitions = partitions;
      this.shift = shift;
    }

    @Override
    public int numPartitions() {
      return partitions;
    }

    @Override
    public int getPartition(Object key) {
      return (int) ((Long) key >> shift);
    }
  }

  /** Runs the job; Spark throws SparkException without declaring it (Scala). */
  private static List<PartBytes> collect(JavaRDD<PartBytes> rdd) throws SparkException {
    return rdd.collect();
  }

  private static String describe(Invocation i) {
    return switch (i.kind()) {
      case FIT -> "next, round " + i.round();
      case EVALUATE_TRAIN -> "evaluation on the training data, round " + i.round();
      case EVALUATE_TEST -> "evaluation on the test data, round " + i.round();
    };
  }

  /** The first line of {@code message}, what a one-line error shows of Spark's long ones. */
  static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "(no message)";
    }
    String line = message.strip();
    int nl = line.indexOf('\n');
    return nl < 0 ? line : line.substring(0, nl).strip();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public void close() {
    spark.stop();
  }
}
