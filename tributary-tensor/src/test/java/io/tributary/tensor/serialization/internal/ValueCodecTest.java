package io.tributary.tensor.serialization.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.serialization.internal.proto.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.EnumSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class ValueCodecTest {

  /** Finite sample values, so protobuf-java's boxed float and double lists keep every bit. */
  static Tensor sample(DType dtype, Shape shape) {
    TensorBuilder b = TensorBuilder.allocate(dtype, shape);
    for (long i = 0; i < shape.size(); i++) {
      double v = (i % 2 == 0 ? 1 : -1) * (i * 1.75 + 0.5);
      switch (dtype.kind()) {
        case STRING -> b.setString(i, i % 3 == 0 ? "" : "w\u00e9ight-" + i + "\uD83D\uDE00");
        case COMPLEX -> b.setComplex(i, v, -2 * v);
        case BOOL -> b.setBoolean(i, i % 3 == 1);
        case UNSIGNED -> b.setFromDouble(i, i * 37 + 200);
        default -> b.setFromDouble(i, v);
      }
    }
    return b.build();
  }

  /** The same tensor as generated protobuf code would write it with Tributary's write mapping. */
  static Value generated(Tensor t, String name) {
    Value.Builder v = Value.newBuilder()
        .setDtype(Value.DataType.forNumber(WireDataType.forWriting(t.dtype()).code()))
        .setName(name);
    for (long d : t.shape().dims()) {
      v.addShape(d);
    }
    for (long i = 0; i < t.size(); i++) {
      switch (t.dtype()) {
        case FLOAT64 -> v.addDouble(t.getDouble(i));
        case FLOAT32 -> v.addFloat(t.getFloat(i));
        case INT32 -> v.addSfixed32(t.getInt(i));
        case INT64 -> v.addSfixed64(t.getLong(i));
        case UINT32 -> v.addFixed32(t.getInt(i));
        case UINT64 -> v.addFixed64(t.getLong(i));
        case BOOL -> v.addBool(t.getBoolean(i));
        case STRING -> v.addString(t.getString(i));
        case COMPLEX64 -> v.addFloat((float) t.getReal(i)).addFloat((float) t.getImag(i));
        case COMPLEX128 -> v.addDouble(t.getReal(i)).addDouble(t.getImag(i));
        default -> { } // raw below
      }
    }
    if (WireDataType.forWriting(t.dtype()).field() == DataField.RAW) {
      byte[] raw = new byte[(int) t.byteSize()];
      t.copyBytes(0, raw, 0, raw.length);
      v.setRaw(ByteString.copyFrom(raw));
    }
    return v.build();
  }

  static Stream<Arguments> dtypesAndShapes() {
    return EnumSet.allOf(DType.class).stream().flatMap(d -> Stream.of(
        Arguments.of(d, Shape.of(2, 3), "layer.weight"),
        Arguments.of(d, Shape.scalar(), ""),
        Arguments.of(d, Shape.of(0, 4), "empty"),
        Arguments.of(d, Shape.of(7), "")));
  }

  @ParameterizedTest(name = "{0}{1} ''{2}''")
  @MethodSource("dtypesAndShapes")
  void encode_everyDtype_matchesProtobufJavaBytes(DType dtype, Shape shape, String name) throws Exception {
    Tensor t = sample(dtype, shape);

    byte[] ours = ValueCodec.encode(t, name);

    assertThat(ours).isEqualTo(generated(t, name).toByteArray());
  }

  @ParameterizedTest(name = "{0}{1} ''{2}''")
  @MethodSource("dtypesAndShapes")
  void decode_protobufJavaBytes_sameTensorAndName(DType dtype, Shape shape, String name) throws Exception {
    Tensor t = sample(dtype, shape);
    byte[] bytes = generated(t, name).toByteArray();

    ValueCodec.Decoded d = ValueCodec.decode(bytes, 0, bytes.length);

    assertThat(d.tensor()).isEqualTo(t);
    assertThat(d.name()).isEqualTo(name);
  }

  @ParameterizedTest
  @EnumSource(value = DType.class, names = {"FLOAT32", "COMPLEX128", "UINT16", "BOOL"})
  void encodeDecode_storageInSmallChunks_sameBytesAsOneChunk(DType dtype) throws Exception {
    Tensor oneChunk = sample(dtype, Shape.of(5, 7));
    TensorBuilder b = TensorBuilder.allocate(dtype, Shape.of(5, 7), 4); // 16-byte chunks
    byte[] data = new byte[(int) oneChunk.byteSize()];
    oneChunk.copyBytes(0, data, 0, data.length);
    Tensor chunked = b.putBytes(0, data, 0, data.length).build();

    byte[] bytes = ValueCodec.encode(chunked, "c");

    assertThat(bytes).isEqualTo(ValueCodec.encode(oneChunk, "c"));
    assertThat(ValueCodec.decode(bytes, 0, bytes.length).tensor()).isEqualTo(oneChunk);
  }

  @Test
  void decode_atOffsetInLargerArray_readsOnlyThatRange() throws Exception {
    Tensor t = sample(DType.FLOAT32, Shape.of(3));
    byte[] v = ValueCodec.encode(t, "x");
    byte[] padded = new byte[v.length + 10];
    padded[0] = (byte) 0xFF;
    padded[padded.length - 1] = (byte) 0xFF;
    System.arraycopy(v, 0, padded, 5, v.length);

    assertThat(ValueCodec.decode(padded, 5, v.length).tensor()).isEqualTo(t);
  }

  @Test
  void decode_varintAndZigzagTypes_readAsProtobufDefines() throws Exception {
    int[] ints = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 300};
    long[] longs = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40};
    Value.Builder int32 = Value.newBuilder().setDtype(Value.DataType.DT_INT32).addShape(6);
    Value.Builder sint32 = Value.newBuilder().setDtype(Value.DataType.DT_SINT32).addShape(6);
    Value.Builder uint32 = Value.newBuilder().setDtype(Value.DataType.DT_UINT32).addShape(6);
    Value.Builder int64 = Value.newBuilder().setDtype(Value.DataType.DT_INT64).addShape(6);
    Value.Builder sint64 = Value.newBuilder().setDtype(Value.DataType.DT_SINT64).addShape(6);
    Value.Builder uint64 = Value.newBuilder().setDtype(Value.DataType.DT_UINT64).addShape(6);
    for (int i = 0; i < 6; i++) {
      int32.addInt32(ints[i]);
      sint32.addSint32(ints[i]);
      uint32.addUint32(ints[i]);
      int64.addInt64(longs[i]);
      sint64.addSint64(longs[i]);
      uint64.addUint64(longs[i]);
    }
    TensorBuilder i32 = TensorBuilder.allocate(DType.INT32, Shape.of(6));
    TensorBuilder u32 = TensorBuilder.allocate(DType.UINT32, Shape.of(6));
    TensorBuilder i64 = TensorBuilder.allocate(DType.INT64, Shape.of(6));
    TensorBuilder u64 = TensorBuilder.allocate(DType.UINT64, Shape.of(6));
    for (int i = 0; i < 6; i++) {
      i32.setInt(i, ints[i]);
      u32.setInt(i, ints[i]);
      i64.setLong(i, longs[i]);
      u64.setLong(i, longs[i]);
    }
    Tensor int32Tensor = i32.build();
    Tensor int64Tensor = i64.build();

    assertThat(decode(int32.build())).isEqualTo(int32Tensor);
    assertThat(decode(sint32.build())).isEqualTo(int32Tensor);
    assertThat(decode(uint32.build())).isEqualTo(u32.build());
    assertThat(decode(int64.build())).isEqualTo(int64Tensor);
    assertThat(decode(sint64.build())).isEqualTo(int64Tensor);
    assertThat(decode(uint64.build())).isEqualTo(u64.build());
  }

  @Test
  void decode_unpackedEncodings_sameAsPacked() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeEnum(1, Value.DataType.DT_FLOAT_VALUE);
    out.writeFloat(3, 1.5f);
    out.writeFloat(3, -2.25f);
    out.writeInt64(16, 2); // shape, unpacked
    out.writeInt64(16, 1);
    out.flush();

    assertThat(decode(bytes.toByteArray())).isEqualTo(Tensor.ofFloats(Shape.of(2, 1), 1.5f, -2.25f));
    assertThat(decode(unpacked(Value.DataType.DT_DOUBLE_VALUE, c -> c.writeDouble(2, 4.0))))
        .isEqualTo(Tensor.ofDoubles(Shape.of(1), 4.0));
    assertThat(decode(unpacked(Value.DataType.DT_SFIXED64_VALUE, c -> c.writeSFixed64(13, -5L))))
        .isEqualTo(Tensor.ofLongs(Shape.of(1), -5L));
    assertThat(decode(unpacked(Value.DataType.DT_INT32_VALUE, c -> c.writeInt32(4, -7))))
        .isEqualTo(Tensor.ofInts(Shape.of(1), -7));
    assertThat(decode(unpacked(Value.DataType.DT_BOOL_VALUE, c -> c.writeBool(14, true))))
        .isEqualTo(Tensor.ofBooleans(Shape.of(1), true));
  }

  interface Writes {
    void to(CodedOutputStream out) throws IOException;
  }

  /** A one-element value of {@code dtypeCode} (written even when 0) with shape [1]. */
  private static byte[] unpacked(int dtypeCode, Writes element) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeEnum(1, dtypeCode);
    element.to(out);
    out.writeInt64(16, 1);
    out.flush();
    return bytes.toByteArray();
  }

  @Test
  void decode_packedFieldSplitAcrossRecords_concatenates() throws Exception {
    byte[] msg = WireBytes.message()
        .varintField(1, Value.DataType.DT_FLOAT_VALUE)
        .floats(1f, 2f)
        .shape(3)
        .floats(3f)
        .build();

    assertThat(decode(msg)).isEqualTo(Tensor.ofFloats(Shape.of(3), 1f, 2f, 3f));
  }

  @Test
  void decode_unknownFieldsOfEveryWireType_skipped() throws Exception {
    byte[] unknown = WireBytes.message()
        .varintField(19, -1)
        .tag(20, WireReader.I64).fixed64(42)
        .lenField(21, new byte[] {1, 2, 3})
        .tag(22, WireReader.SGROUP)
        .varintField(1, 5)
        .tag(23, WireReader.SGROUP).tag(2, WireReader.I32).fixed32(9).tag(23, WireReader.EGROUP)
        .tag(22, WireReader.EGROUP)
        .tag(24, WireReader.I32).fixed32(7)
        .build();
    byte[] msg = WireBytes.message()
        .bytes(unknown)
        .varintField(1, Value.DataType.DT_FLOAT_VALUE)
        .bytes(unknown)
        .floats(1f, 2f)
        .shape(2)
        .bytes(unknown)
        .build();

    assertThat(decode(msg)).isEqualTo(Tensor.ofFloats(Shape.of(2), 1f, 2f));
  }

  @Test
  void decode_fieldsInAnyOrder_sameTensor() throws Exception {
    byte[] msg = WireBytes.message()
        .stringField(17, "n")
        .lenField(18, new byte[] {1, 2, 3, 4})
        .shape(2)
        .varintField(1, Value.DataType.DT_INT16_VALUE)
        .build();

    ValueCodec.Decoded d = ValueCodec.decode(msg, 0, msg.length);

    assertThat(d.name()).isEqualTo("n");
    assertThat(d.tensor()).isEqualTo(Tensor.fromLittleEndian(DType.INT16, Shape.of(2), new byte[] {1, 2, 3, 4}));
  }

  @Test
  void decode_repeatedSingularFields_lastOneWins() throws Exception {
    byte[] msg = WireBytes.message()
        .varintField(1, Value.DataType.DT_DOUBLE_VALUE)
        .stringField(17, "first")
        .varintField(1, Value.DataType.DT_UINT8_VALUE)
        .lenField(18, new byte[] {9, 9, 9})
        .lenField(18, new byte[] {7})
        .stringField(17, "second")
        .build();

    ValueCodec.Decoded d = ValueCodec.decode(msg, 0, msg.length);

    assertThat(d.name()).isEqualTo("second");
    assertThat(d.tensor()).isEqualTo(Tensor.fromLittleEndian(DType.UINT8, Shape.scalar(), new byte[] {7}));
  }

  @Test
  void encode_boolStorageWithNonOneTrue_writesOne() throws Exception {
    Tensor t = Tensor.fromLittleEndian(DType.BOOL, Shape.of(3), new byte[] {0, 5, (byte) 0x80});

    byte[] bytes = ValueCodec.encode(t, "");

    assertThat(Value.parseFrom(bytes).getBoolList()).containsExactly(false, true, true);
  }

  @Test
  void encode_nonContiguousSlice_writesTheViewsElements() throws Exception {
    Tensor full = Tensor.ofInts(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
    Tensor column = full.slice(1, 1, 2);

    byte[] bytes = ValueCodec.encode(column, "");

    assertThat(Value.parseFrom(bytes).getSfixed32List()).containsExactly(2, 5);
    assertThat(decode(bytes)).isEqualTo(Tensor.ofInts(Shape.of(2, 1), 2, 5));
  }

  @Test
  void encode_rankOver64_rejected() {
    Tensor t = Tensor.zeros(DType.FLOAT32, Shape.of(new long[65]));

    assertThatThrownBy(() -> ValueCodec.encode(t, ""))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("rank 65 is over the limit of 64");
  }

  @ParameterizedTest
  @EnumSource(WireDataType.class)
  void wireDataType_matchesGeneratedEnum(WireDataType type) {
    assertThat(Value.DataType.forNumber(type.code()).name()).isEqualTo(type.name());
    FieldDescriptor field = Value.getDescriptor().findFieldByNumber(type.field().number());
    assertThat(field.getName()).isEqualTo(type.field().protoName());
  }

  @Test
  void generatedEnum_hasNoValueTheCodecLacks() {
    assertThat(Value.DataType.values()).hasSize(WireDataType.values().length + 1); // + UNRECOGNIZED
  }

  @ParameterizedTest
  @EnumSource(DataField.class)
  void dataField_packedExactlyWhenProtoPacksIt(DataField f) {
    FieldDescriptor field = Value.getDescriptor().findFieldByNumber(f.number());
    assertThat(field.getName()).isEqualTo(f.protoName());
    assertThat(field.isPacked()).isEqualTo(f.encoding().packable());
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void forWriting_decodesBackToTheSameDtype(DType dtype) {
    assertThat(WireDataType.forWriting(dtype).dtype()).isEqualTo(dtype);
  }

  private static Tensor decode(Value v) throws WireException {
    return decode(v.toByteArray());
  }

  private static Tensor decode(byte[] b) throws WireException {
    return ValueCodec.decode(b, 0, b.length).tensor();
  }
}
