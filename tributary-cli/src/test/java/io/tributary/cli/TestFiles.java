package io.tributary.cli;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.serialization.ParametersCodec;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/** Writes the tensor files the command tests read, with Tributary's own writers. */
final class TestFiles {
  private TestFiles() {}

  /** Named tensors of several dtypes, in a deliberately non-alphabetical order. */
  static SequencedMap<String, Tensor> sample() {
    SequencedMap<String, Tensor> m = new LinkedHashMap<>();
    m.put("layer2.weight", Tensor.ofFloats(Shape.of(2, 3), 1.5f, -2f, 0.25f, 4f, 0f, 0.5f));
    m.put("layer1.bias", Tensor.ofDoubles(Shape.of(3), -1, 0, 4));
    m.put("step", Tensor.ofLongs(Shape.scalar(), 42));
    m.put("mask", Tensor.ofBooleans(Shape.of(4), true, false, true, true));
    m.put("counts", uint8(Shape.of(2, 2), 255, 0, 1, 2));
    return m;
  }

  static Tensor uint8(Shape shape, int... values) {
    TensorBuilder b = TensorBuilder.allocate(DType.UINT8, shape);
    for (int i = 0; i < values.length; i++) {
      b.setByte(i, (byte) values[i]);
    }
    return b.build();
  }

  static Path npy(Path dir, String name, Tensor t) throws IOException {
    Path file = dir.resolve(name);
    Npy.write(t, file);
    return file;
  }

  static Path npz(Path dir, String name, SequencedMap<String, Tensor> tensors) throws IOException {
    Path file = dir.resolve(name);
    Npz.write(file, tensors, false);
    return file;
  }

  static Path pb(Path dir, String name, String tensorType, SequencedMap<String, Tensor> tensors)
      throws IOException {
    Path file = dir.resolve(name);
    byte[] bytes = ParametersCodec.encode(SerializerRegistry.load().forType(tensorType).serializeNamed(tensors));
    Files.write(file, bytes);
    return file;
  }
}
