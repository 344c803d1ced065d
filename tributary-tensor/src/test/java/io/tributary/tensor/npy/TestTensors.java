package io.tributary.tensor.npy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.List;

/** Deterministic tensors for the NPY tests: every dtype numpy has, odd layouts, odd text. */
final class TestTensors {
  static final List<String> TEXT =
      List.of("héllo", "日本語", "🎉 party", "", "a\u0000b", "plain", "Ωmega", "\uD834\uDD1E clef");

  static final List<Shape> SHAPES = List.of(
      Shape.scalar(), Shape.of(0), Shape.of(3, 0, 2), Shape.of(5), Shape.of(3, 4), Shape.of(2, 3, 4));

  private TestTensors() {}

  /** Every dtype that numpy also has: all but bfloat16. */
  static List<DType> numpyDtypes() {
    List<DType> out = new ArrayList<>();
    for (DType d : DType.values()) {
      if (d != DType.BFLOAT16) {
        out.add(d);
      }
    }
    return out;
  }

  /**
   * A tensor whose bytes are a fixed function of position and seed (any bit pattern, NaNs
   * included, bools 0 or 1); strings cycle through {@link #TEXT}.
   */
  static Tensor patterned(DType dtype, Shape shape, int seed) {
    return patterned(dtype, shape, seed, 30);
  }

  /** Like {@link #patterned(DType, Shape, int)} in storage chunks of {@code 2^chunkShift} bytes. */
  static Tensor patterned(DType dtype, Shape shape, int seed, int chunkShift) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape, chunkShift);
    if (dtype == DType.STRING) {
      for (long i = 0; i < shape.size(); i++) {
        b.setString(i, TEXT.get((int) ((i + seed) % TEXT.size())));
      }
      return b.build();
    }
    byte[] one = new byte[1];
    for (long k = 0; k < b.byteSize(); k++) {
      long mixed = (k + 1) * 0x9E3779B97F4A7C15L + seed * 0xBF58476D1CE4E5B9L;
      one[0] = dtype == DType.BOOL ? (byte) ((mixed >>> 40) & 1) : (byte) (mixed >>> 56);
      b.putBytes(k, one, 0, 1);
    }
    return b.build();
  }
}
