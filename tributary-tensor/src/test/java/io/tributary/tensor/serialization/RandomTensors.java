package io.tributary.tensor.serialization;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.Random;

/** Random tensors of any dtype for round-trip tests: random bits, so NaN payloads and -0.0 too. */
public final class RandomTensors {
  private RandomTensors() {}

  /** A tensor of {@code dtype} and {@code shape} whose elements are random bit patterns. */
  public static Tensor random(DType dtype, Shape shape, Random random) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    long n = shape.size();
    if (dtype == DType.STRING) {
      for (long i = 0; i < n; i++) {
        b.setString(i, randomString(random));
      }
    } else if (dtype == DType.BOOL) {
      for (long i = 0; i < n; i++) {
        b.setBoolean(i, random.nextBoolean());
      }
    } else {
      byte[] data = new byte[Math.toIntExact(b.byteSize())];
      random.nextBytes(data);
      b.putBytes(0, data, 0, data.length);
    }
    return b.build();
  }

  /** Up to 8 code points from ASCII, Latin, CJK and the astral planes; never a lone surrogate. */
  public static String randomString(Random random) {
    StringBuilder sb = new StringBuilder();
    int len = random.nextInt(9);
    for (int i = 0; i < len; i++) {
      int cp = switch (random.nextInt(4)) {
        case 0 -> 0x20 + random.nextInt(0x5F);
        case 1 -> 0xA0 + random.nextInt(0x100);
        case 2 -> 0x4E00 + random.nextInt(0x100);
        default -> 0x1F300 + random.nextInt(0x100);
      };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }
}
