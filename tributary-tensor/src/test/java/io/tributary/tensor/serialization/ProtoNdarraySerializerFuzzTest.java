package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Fuzzes the {@code proto.ndarray} serializer's reading of one received {@code Value}: it yields
 * a named tensor or fails with {@link SerializationException}, and what it yields serializes to
 * Parameters that deserialize equal, names included.
 */
class ProtoNdarraySerializerFuzzTest {
  private static final Serializer SERIALIZER = load();

  private static Serializer load() {
    try {
      return SerializerRegistry.load().forType(ProtoNdarraySerializer.TENSOR_TYPE);
    } catch (UnsupportedTensorTypeException e) {
      throw new AssertionError(e);
    }
  }

  @FuzzTest(maxDuration = "5s")
  void deserializeNamed(byte[] value) throws SerializationException {
    LinkedHashMap<String, Tensor> named;
    try {
      named = SERIALIZER.deserializeNamed(
          Parameters.ofValues(ProtoNdarraySerializer.TENSOR_TYPE, List.of(value)));
    } catch (SerializationException e) {
      return;
    }
    assertThat(named).hasSize(1);
    Parameters again = SERIALIZER.serializeNamed(named);
    assertThat(SERIALIZER.deserializeNamed(again)).containsExactlyEntriesOf(named);
  }
}
