package io.tributary.format;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.Random;

/** Deterministic sample tensors for the format's tests. */
final class Samples {
  private Samples() {}

  /** A tensor of {@code dtype} and {@code shape} with pseudo-random bytes (strings for STRING). */
  static Tensor random(DType dtype, Shape shape, long seed) {
    Random r = new Random(seed);
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    if (dtype == DType.STRING) {
      for (long i = 0; i < shape.size(); i++) {
        b.setString(i, "s" + r.nextInt(1000) + (i % 3 == 0 ? " é ☃" : ""));
      }
      return b.build();
    }
    if (dtype == DType.BOOL) {
      for (long i = 0; i < shape.size(); i++) {
        b.setBoolean(i, r.nextBoolean());
      }
      return b.build();
    }
    byte[] bytes = new byte[(int) (shape.size() * dtype.itemSize())];
    r.nextBytes(bytes);
    b.putBytes(0, bytes, 0, bytes.length);
    return b.build();
  }

  static Tensor floats(long seed, long... dims) {
    Random r = new Random(seed);
    Shape s = Shape.of(dims);
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, s);
    for (long i = 0; i < s.size(); i++) {
      b.setFloat(i, (float) r.nextGaussian());
    }
    return b.build();
  }
}
