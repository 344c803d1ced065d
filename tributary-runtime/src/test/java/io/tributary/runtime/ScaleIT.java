package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

/**
 * A federated_mean over 100,000 clients, each holding a 1M-element float32 tensor (4 MB, 400 GB
 * in all) generated on the fly from the client's index, in a JVM limited to {@code -Xmx2g}: it
 * only finishes because the aggregation streams.
 *
 * <p>Runs under failsafe ({@code ./mvnw verify}) in its own JVM; about two minutes on two
 * cores. {@code -Dtributary.scale.clients=N} runs a smaller population.
 */
class ScaleIT {
  private static final int ELEMENTS = 1_000_000;

  /** Client i holds (i % 1000) / 1000 + (j % 4) at element j, rounded to float32. */
  private static Tensor clientTensor(int client) {
    float base = (client % 1000) * 0.001f;
    float[] block = new float[4096];
    for (int j = 0; j < block.length; j++) {
      block[j] = base + (j % 4);
    }
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(ELEMENTS));
    for (ByteBuffer buf : b.writableBuffers()) {
      FloatBuffer fb = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      while (fb.hasRemaining()) {
        fb.put(block, 0, Math.min(block.length, fb.remaining()));
      }
    }
    return b.build();
  }

  @Test
  void federatedMean_100kClientsOf4MegabytesEach_runsInTwoGigabyteHeap() {
    int clients = Integer.getInteger("tributary.scale.clients", 100_000);
    assertThat(Runtime.getRuntime().maxMemory()).isLessThanOrEqualTo(2L << 30);
    Computation mean = Federated.computation(Types.parse("{float32[1000000]}@CLIENTS"),
        Intrinsics::federatedMean);
    LiveHeap live = LiveHeap.watch();
    long start = System.nanoTime();
    Tensor result;
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      result = (Tensor) ctx.invoke(mean, ClientValues.generate(clients, ScaleIT::clientTensor));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    live.stop();
    System.out.printf("ScaleIT: %d clients x %d float32 in %.1f s (%.0f clients/s), "
        + "peak heap after a collection %d MiB over %d collections, max heap %d MiB%n", clients,
        ELEMENTS, seconds, clients / seconds, live.peakBytes() >> 20, live.collections(),
        Runtime.getRuntime().maxMemory() >> 20);

    // The exact mean of the float32 inputs, computed independently of the runtime.
    double[] expected = new double[4];
    for (int m = 0; m < 4; m++) {
      double sum = 0;
      for (int i = 0; i < clients; i++) {
        sum += (float) ((i % 1000) * 0.001f + m);
      }
      expected[m] = sum / clients;
    }
    assertThat(result.shape()).isEqualTo(Shape.of(ELEMENTS));
    float[] got = result.toFloatArray();
    for (int j = 0; j < ELEMENTS; j++) {
      if (Math.abs(got[j] - expected[j % 4]) > 1e-6 * (1 + expected[j % 4])) {
        throw new AssertionError("element " + j + " is " + got[j] + ", expected "
            + expected[j % 4]);
      }
    }
    // 100,000 tensors of 4 MB are 400 GB; a result at all means they never coexisted. What the
    // run keeps alive (the heap right after each collection, not the sum of the pools' peaks,
    // which G1's eden sizing inflates at will) stays a fraction of the heap.
    assertThat(live.collections()).isPositive();
    assertThat(live.peakBytes()).isLessThan(1L << 30);
  }
}
