package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.internal.ValueCodec;
import io.tributary.tensor.serialization.internal.WireException;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Random tensors survive both built-in formats; random damage never escapes as anything but a typed error. */
class SerializerPropertiesTest {

  @Provide
  Arbitrary<Tensor> tensors() {
    return Combinators.combine(
            Arbitraries.of(DType.class),
            Arbitraries.longs().between(0, 4).list().ofMaxSize(4),
            Arbitraries.longs(),
            Arbitraries.integers().between(0, 2))
        .as((dtype, dims, seed, view) -> {
          long[] d = dims.stream().mapToLong(Long::longValue).toArray();
          Tensor t = RandomTensors.random(dtype, Shape.of(d), new Random(seed));
          // Sometimes a strided view, whose elements must be written in row-major order.
          if (view == 1 && d.length >= 2 && d[d.length - 1] >= 2) {
            return t.slice(d.length - 1, 1, d[d.length - 1]);
          }
          if (view == 2 && d.length >= 1 && d[0] >= 2) {
            return t.slice(0, 1, d[0]);
          }
          return t;
        });
  }

  @Provide
  Arbitrary<List<Tensor>> tensorLists() {
    return tensors().list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<List<Tensor>> numpyTensorLists() {
    return tensors().filter(t -> t.dtype() != DType.BFLOAT16).list().ofMaxSize(5);
  }

  @Property(tries = 300)
  void protoNdarray_randomTensors_roundTripExactly(@ForAll("tensorLists") List<Tensor> tensors)
      throws Exception {
    ProtoNdarraySerializer s = new ProtoNdarraySerializer();

    byte[] wire = ParametersCodec.encode(s.serialize(tensors));

    assertThat(s.deserialize(ParametersCodec.decode(wire))).isEqualTo(tensors);
  }

  @Property(tries = 300)
  void numpyNdarray_randomTensors_roundTripExactly(@ForAll("numpyTensorLists") List<Tensor> tensors)
      throws Exception {
    NumpyNdarraySerializer s = new NumpyNdarraySerializer();

    byte[] wire = ParametersCodec.encode(s.serialize(tensors));

    assertThat(s.deserialize(ParametersCodec.decode(wire))).isEqualTo(tensors);
  }

  @Property(tries = 500)
  void decode_damagedValue_decodesOrThrowsWireException(
      @ForAll("tensors") Tensor tensor,
      @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 1 << 20) Integer> positions,
      @ForAll @Size(min = 4, max = 4) List<@IntRange(min = 0, max = 255) Integer> values,
      @ForAll @IntRange(min = 0, max = 100) int keepPercent) throws Exception {
    byte[] bytes = ValueCodec.encode(tensor, "w");
    for (int i = 0; i < positions.size() && bytes.length > 0; i++) {
      bytes[positions.get(i) % bytes.length] = (byte) (int) values.get(i);
    }
    int len = (int) ((long) bytes.length * keepPercent / 100);

    try {
      Tensor decoded = ValueCodec.decode(bytes, 0, len).tensor();
      // Whatever decoded must survive a second round trip unchanged.
      byte[] again = ValueCodec.encode(decoded, "");
      assertThat(ValueCodec.decode(again, 0, again.length).tensor()).isEqualTo(decoded);
    } catch (WireException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Property(tries = 1000)
  void decode_randomBytes_decodesOrThrowsWireException(@ForAll @Size(max = 64) byte[] bytes) {
    try {
      ValueCodec.decode(bytes, 0, bytes.length);
    } catch (WireException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Property(tries = 300)
  void decode_damagedParameters_decodesOrThrowsSerializationException(
      @ForAll("tensorLists") List<Tensor> tensors,
      @ForAll @IntRange(min = 0, max = 1 << 20) int position,
      @ForAll byte value) throws Exception {
    byte[] wire = ParametersCodec.encode(new ProtoNdarraySerializer().serialize(tensors));
    if (wire.length > 0) {
      wire[position % wire.length] = value;
    }

    try {
      Parameters p = ParametersCodec.decode(wire);
      SerializerRegistry.of(new ProtoNdarraySerializer()).deserialize(p);
    } catch (SerializationException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }
}
