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
import java.util.function.Supplier;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * Computes a simulation's client passes on Spark: each pass is one job whose tasks compute
 * consecutive ranges of its groups on the executors, which rebuild the simulation from its
 * settings ({@link WorkerReplicas}); the parts come back in partition order, and the runtime
 * merges them with the pass's fixed reduction tree, so the result is the local run's bits.
 *
 * <p>A task that fails is retried by Spark ({@code spark.task.maxFailures}); a job that fails
 * anyway becomes a {@link PassEngineException} with one line naming the cause.
 */
public final class SparkPassEngine implements ClusterEngine {
  private final JavaSparkContext spark;
  private final byte[] settings;
  private final String settingsKey;
  private final Supplier<Invocation> current;
  private final int partitions;

  /**
   * An engine on {@code spark} for the simulation whose encoded settings are {@code settings}.
   *
   * @param spark the context; {@link #close()} stops it
   * @param settings the {@link io.tributary.simulation.SettingsCodec} encoding of the settings
   * @param current which invocation is running when a pass is asked for
   * @param partitions the tasks per pass, or 0 for Spark's default parallelism
   */
  public SparkPassEngine(JavaSparkContext spark, byte[] settings, Supplier<Invocation> current,
      int partitions) {
    this.spark = spark;
    this.settings = settings.clone();
    this.settingsKey = sha256(settings);
    this.current = current;
    this.partitions = partitions > 0 ? partitions : Math.max(1, spark.defaultParallelism());
  }

  /** The tasks each pass is cut into (at most; fewer when a pass has fewer groups). */
  public int partitions() {
    return partitions;
  }

  @Override
  public List<PassPart> run(PassRequest request) {
    Invocation invocation = current.get();
    if (invocation == null) {
      throw new PassEngineException("a pass was asked for outside a simulation's invocation",
          null);
    }
    List<GroupRange> ranges = GroupRange.cut(request.groups(), partitions);
    if (ranges.isEmpty()) {
      return List.of();
    }
    PassJob job = new PassJob(settings, settingsKey, invocation.kind().ordinal(),
        invocation.round(), ValueCodec.encode(request.arguments().get(0)), request.pass(),
        request.earlier());
    Broadcast<PassJob> shared = spark.broadcast(job);
    try {
      List<PartBytes> parts = collect(spark.parallelize(ranges, ranges.size())
          .map(r -> WorkerPass.compute(shared.value(), r)));
      List<PassPart> out = new ArrayList<>(parts.size());
      parts.forEach(p -> out.add(p.toPart()));
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
