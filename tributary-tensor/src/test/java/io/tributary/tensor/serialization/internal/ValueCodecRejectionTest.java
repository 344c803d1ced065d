package io.tributary.tensor.serialization.internal;

import static io.tributary.tensor.serialization.internal.WireBytes.message;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.serialization.internal.proto.Value.DataType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every way a {@code Value} can be malformed ends in a WireException that says what and where. */
class ValueCodecRejectionTest {
  private static final int FLOAT = DataType.DT_FLOAT_VALUE;

  static Stream<Arguments> malformed() {
    return Stream.of(
        // protobuf framing
        bad("truncated tag", message().raw(0x80), "truncated varint in field tag (at byte 0)"),
        bad("truncated varint", message().raw(0x08, 0x81), "truncated varint in dtype (at byte 1)"),
        bad("varint over 10 bytes",
            message().raw(0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01),
            "varint longer than 10 bytes in dtype"),
        bad("truncated length", message().tag(3, WireReader.LEN).raw(0x80), "truncated varint in length of field 3 (float)"),
        bad("length beyond buffer", message().tag(3, WireReader.LEN).varint(100).fixed32(0),
            "length 100 of field 3 (float) runs past the end of the message (4 bytes left)"),
        bad("negative length", message().tag(3, WireReader.LEN).varint(-1),
            "length 18446744073709551615 of field 3 (float) runs past the end"),
        bad("length beyond buffer in unknown field", message().tag(30, WireReader.LEN).varint(5).raw(1),
            "length 5 of field 30 runs past the end"),
        bad("truncated unpacked float", message().varintField(1, FLOAT).tag(3, WireReader.I32).raw(1, 2),
            "truncated field 3 (float): needs 4 bytes, 2 left"),
        bad("truncated unknown fixed64", message().tag(30, WireReader.I64).raw(1, 2, 3),
            "truncated 64-bit field 30: needs 8 bytes, 3 left"),
        bad("truncated varint inside packed int32",
            message().varintField(1, DataType.DT_INT32_VALUE).tag(4, WireReader.LEN).varint(2).raw(0x01, 0x80),
            "truncated varint in field 4 (int32) (at byte 5)"),
        bad("field number 0", message().raw(0x00, 0x00), "invalid field number 0"),
        bad("wire type 6", message().tag(5, 6), "invalid wire type 6 for field 5"),
        bad("wire type 7", message().tag(30, 7), "invalid wire type 7 for field 30"),
        bad("end group without start", message().tag(30, WireReader.EGROUP), "unexpected end-group tag for field 30"),
        bad("group without end", message().tag(30, WireReader.SGROUP).varintField(1, 1), "group 30 has no end tag"),
        bad("group closed by another field", message().tag(30, WireReader.SGROUP).tag(31, WireReader.EGROUP),
            "end tag of group 31 closes group 30"),
        // wrong wire types of known fields
        bad("dtype as bytes", message().lenField(1, new byte[] {1}), "wrong wire type 2 for field 1 (dtype), expected 0"),
        bad("float as fixed64", message().varintField(1, FLOAT).tag(3, WireReader.I64).fixed64(1),
            "wrong wire type 1 for field 3 (float), expected 2 (packed) or 5"),
        bad("double as varint", message().tag(2, WireReader.VARINT).varint(1),
            "wrong wire type 0 for field 2 (double), expected 2 (packed) or 1"),
        bad("string as varint", message().varintField(1, DataType.DT_STRING_VALUE).varintField(15, 1),
            "wrong wire type 0 for field 15 (string), expected 2"),
        bad("raw as fixed32", message().varintField(1, DataType.DT_INT8_VALUE).tag(18, WireReader.I32).fixed32(1),
            "wrong wire type 5 for field 18 (raw), expected 2"),
        bad("shape as fixed32", message().tag(16, WireReader.I32).fixed32(1),
            "wrong wire type 5 for field 16 (shape), expected 2 (packed) or 0"),
        bad("name as varint", message().varintField(17, 1), "wrong wire type 0 for field 17 (name), expected 2"),
        // sizes
        bad("packed float length not a multiple of 4", message().varintField(1, FLOAT).tag(3, WireReader.LEN).varint(6).fixed32(0).raw(0, 0),
            "packed field 3 (float) has length 6, not a multiple of its 4-byte items"),
        bad("packed double length not a multiple of 8", message().tag(2, WireReader.LEN).varint(12).fixed64(0).fixed32(0),
            "packed field 2 (double) has length 12, not a multiple of its 8-byte items"),
        bad("packed sfixed64 length not a multiple of 8",
            message().varintField(1, DataType.DT_SFIXED64_VALUE).tag(13, WireReader.LEN).varint(4).fixed32(0),
            "packed field 13 (sfixed64) has length 4, not a multiple of its 8-byte items"),
        bad("raw length not a multiple of the item size",
            message().varintField(1, DataType.DT_FLOAT16_VALUE).lenField(18, new byte[3]).shape(1),
            "field 18 (raw) has length 3, not a multiple of 2, the item size of float16"),
        bad("fewer elements than the shape", message().varintField(1, FLOAT).floats(1, 2, 3, 4, 5).shape(2, 3),
            "value holds 5 items in field 3 (float) but dtype DT_FLOAT with shape [2, 3] needs 6"),
        bad("more elements than the shape", message().varintField(1, FLOAT).floats(1, 2).shape(1),
            "value holds 2 items in field 3 (float) but dtype DT_FLOAT with shape [1] needs 1"),
        bad("scalar without data", message().varintField(1, FLOAT), "holds 0 items in field 3 (float) but dtype DT_FLOAT with shape [] needs 1"),
        bad("huge shape, one element: checked before allocating",
            message().varintField(1, FLOAT).floats(1).shape(1L << 40, 1L << 20),
            "holds 1 items in field 3 (float) but dtype DT_FLOAT with shape [1099511627776, 1048576] needs 1152921504606846976"),
        bad("complex64 needs two floats per element",
            message().varintField(1, DataType.DT_COMPLEX64_VALUE).floats(1, 2, 3).shape(2),
            "holds 3 items in field 3 (float) but dtype DT_COMPLEX64 with shape [2] needs 4"),
        bad("string count", message().varintField(1, DataType.DT_STRING_VALUE).stringField(15, "a").shape(2),
            "holds 1 items in field 15 (string) but dtype DT_STRING with shape [2] needs 2"),
        // shape
        bad("shape overflow", message().varintField(1, FLOAT).shape(1L << 32, 1L << 32),
            "shape [4294967296, 4294967296] of 4-byte items is larger than numpy allows"),
        bad("complex count overflow", message().varintField(1, DataType.DT_COMPLEX128_VALUE).shape(1L << 62, 2),
            "larger than numpy allows"),
        bad("negative dimension", message().varintField(1, FLOAT).shape(2, -3), "negative dimension -3 at axis 1 of shape"),
        bad("negative unpacked dimension", message().tag(16, WireReader.VARINT).varint(Long.MIN_VALUE),
            "negative dimension -9223372036854775808 at axis 0"),
        bad("rank over 64", message().varintField(1, FLOAT).shape(new long[65]), "shape has more than numpy's 64 dimensions"),
        // dtype and data fields
        bad("unknown dtype enum", message().varintField(1, 22), "unknown dtype enum value 22; known: 0 (DT_DOUBLE) to 21 (DT_COMPLEX128)"),
        bad("negative dtype enum", message().varintField(1, -1), "unknown dtype enum value -1"),
        bad("float data for DT_DOUBLE", message().floats(1f), "data in field 3 (float) but dtype DT_DOUBLE keeps its elements in field 2 (double)"),
        bad("double data for DT_FLOAT", message().varintField(1, FLOAT).tag(2, WireReader.I64).fixed64(0),
            "data in field 2 (double) but dtype DT_FLOAT keeps its elements in field 3 (float)"),
        bad("sfixed32 data for DT_INT32", message().varintField(1, DataType.DT_INT32_VALUE).lenField(12, new byte[4]),
            "data in field 12 (sfixed32) but dtype DT_INT32 keeps its elements in field 4 (int32)"),
        bad("raw data for DT_FLOAT", message().varintField(1, FLOAT).lenField(18, new byte[4]),
            "data in field 18 (raw) but dtype DT_FLOAT keeps its elements in field 3 (float)"),
        bad("empty packed record in another field", message().varintField(1, FLOAT).floats(1).lenField(2, new byte[0]),
            "data in field 2 (double) but dtype DT_FLOAT"),
        bad("string data for DT_UINT8", message().varintField(1, DataType.DT_UINT8_VALUE).stringField(15, "x"),
            "data in field 15 (string) but dtype DT_UINT8 keeps its elements in field 18 (raw)"),
        // text
        bad("invalid UTF-8 string element",
            message().varintField(1, DataType.DT_STRING_VALUE).stringField(15, "ok").lenField(15, new byte[] {(byte) 0xC3}).shape(2),
            "invalid UTF-8 in string element 1"),
        bad("invalid UTF-8 name", message().varintField(1, FLOAT).floats().shape(0).lenField(17, new byte[] {(byte) 0xFF}), "invalid UTF-8 in name"));
  }

  private static Arguments bad(String what, WireBytes bytes, String message) {
    return Arguments.of(what, bytes.build(), message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void decode_malformedValue_rejectedWithReason(String what, byte[] bytes, String message) {
    assertThatThrownBy(() -> ValueCodec.decode(bytes, 0, bytes.length))
        .isInstanceOf(WireException.class)
        .hasMessageContaining(message);
  }

  @Test
  void decode_rangeOutsideArray_rejectedAsProgrammingError() {
    assertThatThrownBy(() -> ValueCodec.decode(new byte[4], 2, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
