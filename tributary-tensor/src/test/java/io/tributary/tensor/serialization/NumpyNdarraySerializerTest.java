package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NumpyNdarraySerializerTest {
  private final NumpyNdarraySerializer serializer = new NumpyNdarraySerializer();

  @Test
  void serialize_everyNumpyDtype_oneNpyBlobPerTensor() throws Exception {
    Random random = new Random(3);
    List<Tensor> tensors = new ArrayList<>();
    for (DType d : DType.values()) {
      if (d != DType.BFLOAT16) {
        tensors.add(RandomTensors.random(d, Shape.of(2, 3), random));
      }
    }

    Parameters p = serializer.serialize(tensors);

    assertThat(p.tensorType()).isEqualTo("numpy.ndarray");
    assertThat(p.values()).isEmpty();
    assertThat(p.tensors()).hasSize(tensors.size());
    for (int i = 0; i < tensors.size(); i++) {
      assertThat(p.tensors().get(i)).isEqualTo(Npy.toBytes(tensors.get(i)));
    }
    assertThat(serializer.deserialize(ParametersCodec.decode(ParametersCodec.encode(p)))).isEqualTo(tensors);
  }

  @Test
  void serialize_bfloat16_rejectedNamingTheIndex() {
    Tensor bf16 = Tensor.zeros(DType.BFLOAT16, Shape.of(2));

    assertThatThrownBy(() -> serializer.serialize(List.of(Tensor.scalar(1f), bf16)))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith("tensor 1: cannot write as NPY: ")
        .hasMessageContaining("bfloat16");
  }

  @Test
  void deserialize_malformedBlob_namesItsIndex() throws Exception {
    byte[] good = Npy.toBytes(Tensor.scalar(1f));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
    Parameters p = Parameters.ofTensors("numpy.ndarray", List.of(good, truncated));

    assertThatThrownBy(() -> serializer.deserialize(p))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith("tensor 1: malformed NPY blob: ")
        .satisfies(e -> assertThat(((SerializationException) e).tensorIndex()).hasValue(1));
  }

  @Test
  void deserialize_otherTensorType_rejectedNamingBoth() {
    Parameters p = Parameters.ofValues("proto.ndarray", List.of());

    assertThatThrownBy(() -> serializer.deserialize(p))
        .isInstanceOf(UnsupportedTensorTypeException.class)
        .hasMessage("unsupported tensor_type 'proto.ndarray'; available: numpy.ndarray");
  }

  @Test
  void serializeNamed_namesDropped_readBackAsArrN() throws Exception {
    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("w", Tensor.scalar(1f));
    named.put("b", Tensor.scalar(2f));

    LinkedHashMap<String, Tensor> back = serializer.deserializeNamed(serializer.serializeNamed(named));

    assertThat(back.keySet()).containsExactly("arr_0", "arr_1");
    assertThat(back.values()).containsExactly(Tensor.scalar(1f), Tensor.scalar(2f));
  }
}
