package io.tributary.bench;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * Rounds per second and peak heap of a synthetic federated round (broadcast the model, map a
 * client update over every client, weighted mean of the updates) for a growing number of clients
 * per round. Not a JMH benchmark: each round is seconds long, and peak memory is the point.
 *
 * <p>Usage: {@code java -Xmx2g -cp benchmarks.jar io.tributary.bench.RoundThroughput
 * [modelElements] [threads] [clients...]}; prints one markdown table row per client count.
 */
public final class RoundThroughput {
  private RoundThroughput() {}

  /** The client update: the model plus a small client-specific shift; weight 1 + id % 10. */
  private static Object update(Object arg) {
    StructValue a = (StructValue) arg;
    Tensor model = (Tensor) a.get(0);
    int id = ((Tensor) a.get(1)).getInt(0);
    float shift = ((id % 7) - 3) * 1e-3f;
    int n = (int) model.size();
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, model.shape());
    float[] block = new float[4096];
    int pos = 0;
    FloatBuffer in = model.dataBuffers().get(0).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    for (ByteBuffer buf : b.writableBuffers()) {
      FloatBuffer out = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      while (out.hasRemaining()) {
        int k = Math.min(block.length, out.remaining());
        in.get(pos, block, 0, k);
        for (int j = 0; j < k; j++) {
          block[j] += shift;
        }
        out.put(block, 0, k);
        pos += k;
      }
    }
    if (pos != n) {
      throw new IllegalStateException("model of " + n + " elements, wrote " + pos);
    }
    return StructValue.named("model", b.build(),
        "weight", Tensor.ofFloats(Shape.scalar(), 1 + id % 10));
  }

  static Computation round(int elements) {
    String model = "float32[" + elements + "]";
    Computation clientUpdate = Federated.local("client_update",
        "(<" + model + ",int32> -> <model=" + model + ",weight=float32>)",
        RoundThroughput::update);
    return Federated.computation(Types.parse(model + "@SERVER"), Types.parse("{int32}@CLIENTS"),
        (serverModel, ids) -> {
          Value out = Intrinsics.federatedMap(clientUpdate,
              Federated.struct(Intrinsics.federatedBroadcast(serverModel), ids));
          return Intrinsics.federatedWeightedMean(out.get("model"), out.get("weight"));
        });
  }

  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  public static void main(String[] args) {
    int elements = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int threads = args.length > 1 ? Integer.parseInt(args[1])
        : Runtime.getRuntime().availableProcessors();
    int[] counts = {10, 100, 1_000, 10_000, 100_000};
    if (args.length > 2) {
      counts = new int[args.length - 2];
      for (int i = 2; i < args.length; i++) {
        counts[i - 2] = Integer.parseInt(args[i]);
      }
    }
    Computation round = round(elements);
    System.out.printf("model float32[%d] (%.1f MB), %d threads, max heap %d MiB%n%n", elements,
        elements * 4 / 1e6, threads, Runtime.getRuntime().maxMemory() >> 20);
    System.out.println("| clients per round | rounds | seconds per round | rounds/s "
        + "| client updates/s | peak heap MiB |");
    System.out.println("|---:|---:|---:|---:|---:|---:|");
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withThreads(threads))) {
      for (int clients : counts) {
        Tensor model = Tensor.zeros(DType.FLOAT32, Shape.of(elements));
        ClientValues ids = ClientValues.generate(clients,
            i -> Tensor.ofInts(Shape.scalar(), i));
        ctx.invoke(round, model, ids); // warm-up
        resetPeaks();
        int rounds = 0;
        long start = System.nanoTime();
        while (rounds < 3 || System.nanoTime() - start < 5_000_000_000L) {
          model = (Tensor) ctx.invoke(round, model, ids);
          rounds++;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("| %d | %d | %.4f | %.2f | %.0f | %d |%n", clients, rounds,
            seconds / rounds, rounds / seconds, clients * rounds / seconds, peakHeap() >> 20);
      }
    }
  }
}
