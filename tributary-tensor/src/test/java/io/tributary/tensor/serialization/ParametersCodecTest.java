package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.internal.proto.Value;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParametersCodecTest {
  private static final io.tributary.tensor.serialization.internal.proto.Parameters.Builder
      GENERATED = io.tributary.tensor.serialization.internal.proto.Parameters.newBuilder();

  private static Parameters sample() throws SerializationException {
    Parameters values = new ProtoNdarraySerializer().serialize(List.of(
        Tensor.ofFloats(Shape.of(2), 1f, 2f), Tensor.ofStrings(Shape.scalar(), "s")));
    return new Parameters(List.of(new byte[] {1, 2, 3}, new byte[0]), "proto.ndarray", values.values());
  }

  @Test
  void encode_sample_matchesProtobufJavaBytes() throws Exception {
    Parameters p = sample();
    var expected = GENERATED.clone()
        .addTensors(ByteString.copyFrom(p.tensors().get(0)))
        .addTensors(ByteString.EMPTY)
        .setTensorType("proto.ndarray")
        .addValues(Value.parseFrom(p.values().get(0)))
        .addValues(Value.parseFrom(p.values().get(1)))
        .build();

    assertThat(ParametersCodec.encode(p)).isEqualTo(expected.toByteArray());
  }

  @Test
  void decode_encoded_equalsOriginal() throws Exception {
    Parameters p = sample();

    assertThat(ParametersCodec.decode(ParametersCodec.encode(p))).isEqualTo(p);
  }

  @Test
  void decode_flowerParametersWithoutValues_readsTensorsAndType() throws Exception {
    byte[] flower = GENERATED.clone()
        .addTensors(ByteString.copyFrom(new byte[] {9, 8}))
        .setTensorType("numpy.ndarray")
        .build().toByteArray();

    Parameters p = ParametersCodec.decode(flower);

    assertThat(p).isEqualTo(Parameters.ofTensors("numpy.ndarray", List.of(new byte[] {9, 8})));
  }

  @Test
  void encode_emptyParameters_isTheEmptyMessage() throws Exception {
    Parameters empty = new Parameters(List.of(), "", List.of());

    assertThat(ParametersCodec.encode(empty)).isEmpty();
    assertThat(ParametersCodec.decode(new byte[0])).isEqualTo(empty);
  }

  @Test
  void decode_unknownFieldsAndOffset_skipsBoth() throws Exception {
    byte[] msg = {
        (byte) 0xFF, // outside the range
        0x20, 0x05, // field 4 varint: unknown
        0x12, 0x01, 'x', // tensor_type "x"
        0x2D, 1, 2, 3, 4, // field 5 fixed32: unknown
        0x0A, 0x00, // one empty tensor
        (byte) 0xFF};

    Parameters p = ParametersCodec.decode(msg, 1, msg.length - 2);

    assertThat(p).isEqualTo(Parameters.ofTensors("x", List.of(new byte[0])));
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("tensors as varint", new byte[] {0x08, 0x01}, "wrong wire type 0 for field 1 (tensors), expected 2"),
        Arguments.of("tensor_type as fixed32", new byte[] {0x15, 0, 0, 0, 0}, "wrong wire type 5 for field 2 (tensor_type)"),
        Arguments.of("values as fixed64", new byte[] {0x19, 0, 0, 0, 0, 0, 0, 0, 0}, "wrong wire type 1 for field 3 (values)"),
        Arguments.of("truncated length", new byte[] {0x0A, (byte) 0x80}, "truncated varint in length of tensors"),
        Arguments.of("length past the end", new byte[] {0x1A, 0x05, 1, 2}, "length 5 of values runs past the end"),
        Arguments.of("truncated tag", new byte[] {(byte) 0x80}, "truncated varint in field tag"),
        Arguments.of("invalid UTF-8 tensor_type", new byte[] {0x12, 0x01, (byte) 0xC0}, "invalid UTF-8 in tensor_type"),
        Arguments.of("unknown group unterminated", new byte[] {0x23}, "group 4 has no end tag"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void decode_malformed_rejectedWithReason(String what, byte[] bytes, String message) {
    assertThatThrownBy(() -> ParametersCodec.decode(bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageStartingWith("malformed Parameters: ")
        .hasMessageContaining(message);
  }

  @Test
  void equals_sameContentsInOtherArrays_equalWithSameHash() {
    Parameters a = new Parameters(List.of(new byte[] {1}), "t", List.of(new byte[] {2}));
    Parameters b = new Parameters(List.of(new byte[] {1}), "t", List.of(new byte[] {2}));

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(new Parameters(List.of(new byte[] {1}), "t", List.of(new byte[] {3})));
    assertThat(a).isNotEqualTo(new Parameters(List.of(), "t", List.of(new byte[] {1}, new byte[] {2})));
    assertThat(a.toString()).isEqualTo("Parameters[t, 1 tensors, 1 values, 2 bytes]");
  }

  @Test
  void tensors_returnedList_isUnmodifiable() {
    Parameters p = Parameters.ofTensors("t", List.of(new byte[] {1}));

    assertThatThrownBy(() -> p.tensors().add(new byte[0])).isInstanceOf(UnsupportedOperationException.class);
  }
}
