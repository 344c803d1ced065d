package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtoNdarraySerializerTest {
  private final ProtoNdarraySerializer serializer = new ProtoNdarraySerializer();

  @Test
  void serialize_everyDtype_roundTripsExactly() throws Exception {
    Random random = new Random(7);
    List<Tensor> tensors = new java.util.ArrayList<>();
    for (DType d : DType.values()) {
      tensors.add(RandomTensors.random(d, Shape.of(3, 2), random));
    }

    Parameters p = serializer.serialize(tensors);

    assertThat(p.tensorType()).isEqualTo("proto.ndarray");
    assertThat(p.tensors()).isEmpty();
    assertThat(p.values()).hasSize(tensors.size());
    assertThat(serializer.deserialize(ParametersCodec.decode(ParametersCodec.encode(p)))).isEqualTo(tensors);
  }

  @Test
  void serializeNamed_names_readBackInOrder() throws Exception {
    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("dense/kernel", Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4));
    named.put("dense/bias", Tensor.ofFloats(Shape.of(2), 5, 6));
    named.put("step", Tensor.ofLongs(Shape.scalar(), 9));

    LinkedHashMap<String, Tensor> back = serializer.deserializeNamed(serializer.serializeNamed(named));

    assertThat(back).containsExactlyEntriesOf(named);
  }

  @Test
  void deserializeNamed_unnamedValues_getNumpyDefaultNames() throws Exception {
    Parameters p = serializer.serialize(List.of(Tensor.scalar(1f), Tensor.scalar(2.0)));

    assertThat(serializer.deserializeNamed(p)).containsOnlyKeys("arr_0", "arr_1");
  }

  @Test
  void deserializeNamed_duplicateNames_rejectedNamingTheIndex() throws Exception {
    LinkedHashMap<String, Tensor> first = new LinkedHashMap<>();
    first.put("w", Tensor.scalar(1f));
    Parameters one = serializer.serializeNamed(first);
    Parameters twice = Parameters.ofValues("proto.ndarray", List.of(one.values().get(0), one.values().get(0)));

    assertThatThrownBy(() -> serializer.deserializeNamed(twice))
        .isInstanceOf(SerializationException.class)
        .hasMessage("tensor 1: duplicate tensor name 'w'")
        .satisfies(e -> assertThat(((SerializationException) e).tensorIndex()).hasValue(1));
  }

  @Test
  void deserializeNamed_explicitNameClashesWithDefault_rejected() throws Exception {
    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("", Tensor.scalar(1f));
    named.put("arr_0", Tensor.scalar(2f));

    assertThatThrownBy(() -> serializer.deserializeNamed(serializer.serializeNamed(named)))
        .hasMessage("tensor 1: duplicate tensor name 'arr_0'");
  }

  @Test
  void deserialize_otherTensorType_rejectedNamingBoth() {
    Parameters p = Parameters.ofTensors("numpy.ndarray", List.of());

    assertThatThrownBy(() -> serializer.deserialize(p))
        .isInstanceOf(UnsupportedTensorTypeException.class)
        .hasMessage("unsupported tensor_type 'numpy.ndarray'; available: proto.ndarray");
  }

  @Test
  void deserialize_malformedValue_namesItsIndex() throws Exception {
    Parameters good = serializer.serialize(List.of(Tensor.scalar(1f), Tensor.scalar(2f)));
    Parameters bad = Parameters.ofValues("proto.ndarray", List.of(good.values().get(0), new byte[] {0x08, 99}));

    assertThatThrownBy(() -> serializer.deserialize(bad))
        .isInstanceOf(SerializationException.class)
        .hasMessage("tensor 1: malformed proto.ndarray Value: unknown dtype enum value 99; known: 0 (DT_DOUBLE) to 21 (DT_COMPLEX128)")
        .satisfies(e -> assertThat(((SerializationException) e).tensorIndex()).hasValue(1));
  }

  @Test
  void deserialize_ignoresTensorsField() throws Exception {
    Parameters values = serializer.serialize(List.of(Tensor.scalar(3f)));
    Parameters both = new Parameters(List.of(new byte[] {1, 2}), "proto.ndarray", values.values());

    assertThat(serializer.deserialize(both)).containsExactly(Tensor.scalar(3f));
  }

  @Test
  void serialize_rankOver64_rejectedNamingTheIndex() {
    Tensor tooDeep = Tensor.zeros(DType.INT8, Shape.of(new long[65]));

    assertThatThrownBy(() -> serializer.serialize(List.of(Tensor.scalar(1f), tooDeep)))
        .isInstanceOf(SerializationException.class)
        .hasMessage("tensor 1: rank 65 is over the limit of 64");
  }

  @Test
  void serializeNamed_unorderedMap_takesNamesSorted() throws Exception {
    Map<String, Tensor> named = Map.of("w", Tensor.scalar(1f), "b", Tensor.scalar(2f),
        "a", Tensor.scalar(3f));

    LinkedHashMap<String, Tensor> back = serializer.deserializeNamed(serializer.serializeNamed(named));

    assertThat(back.keySet()).containsExactly("a", "b", "w");
    assertThat(back).isEqualTo(named);
    // The default for formats without names takes the same order.
    assertThat(new NumpyNdarraySerializer().deserialize(
        new NumpyNdarraySerializer().serializeNamed(named)))
        .containsExactly(Tensor.scalar(3f), Tensor.scalar(2f), Tensor.scalar(1f));
  }
}
