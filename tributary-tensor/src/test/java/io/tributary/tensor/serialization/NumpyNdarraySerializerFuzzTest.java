package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.util.List;

/**
 * Fuzzes the {@code numpy.ndarray} serializer's reading of one received tensor blob: it yields a
 * tensor or fails with {@link SerializationException}, and a tensor it yields serializes to
 * Parameters that deserialize equal.
 */
class NumpyNdarraySerializerFuzzTest {
  private static final Serializer SERIALIZER = load();

  private static Serializer load() {
    try {
      return SerializerRegistry.load().forType(NumpyNdarraySerializer.TENSOR_TYPE);
    } catch (UnsupportedTensorTypeException e) {
      throw new AssertionError(e);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void deserialize(byte[] blob) throws SerializationException {
    List<Tensor> tensors;
    try {
      tensors = SERIALIZER.deserialize(
          Parameters.ofTensors(NumpyNdarraySerializer.TENSOR_TYPE, List.of(blob)));
    } catch (SerializationException e) {
      return;
    }
    assertThat(tensors).hasSize(1);
    Parameters again;
    try {
      again = SERIALIZER.serialize(tensors);
    } catch (SerializationException e) {
      return;
    }
    assertThat(SERIALIZER.deserialize(again)).isEqualTo(tensors);
  }
}
