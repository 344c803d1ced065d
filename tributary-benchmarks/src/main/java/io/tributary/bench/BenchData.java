package io.tributary.bench;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.SplittableRandom;

/** Seeded benchmark inputs, identical in every run. */
final class BenchData {
  private BenchData() {}

  /** A 1-d tensor of {@code megabytes * 10^6} bytes of uniform random values in [-1, 1). */
  static Tensor randomTensor(DType dtype, int megabytes, long seed) {
    long n = megabytes * 1_000_000L / dtype.itemSize();
    TensorBuilder b = TensorBuilder.allocate(dtype, Shape.of(n));
    SplittableRandom rnd = new SplittableRandom(seed);
    for (long i = 0; i < n; i++) {
      b.setFromDouble(i, rnd.nextDouble(-1, 1));
    }
    return b.build();
  }
}
