package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class TensorTest {

  @Test
  void ofFloats_rowMajorValues_readBackByFlatIndex() {
    Tensor t = Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
    assertThat(t.dtype()).isEqualTo(DType.FLOAT32);
    assertThat(t.size()).isEqualTo(6);
    assertThat(t.byteSize()).isEqualTo(24);
    assertThat(t.getFloat(4)).isEqualTo(5f);
    assertThat(t.toFloatArray()).containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void scalar_rankZero_hasOneElement() {
    Tensor t = Tensor.scalar(2.5);
    assertThat(t.rank()).isZero();
    assertThat(t.size()).isEqualTo(1);
    assertThat(t.getDouble(0)).isEqualTo(2.5);
    assertThat(t.shape()).isEqualTo(Shape.scalar());
  }

  @Test
  void zeros_zeroSizeDimension_hasNoElementsAndNoBytes() {
    Tensor t = Tensor.zeros(DType.INT64, Shape.of(3, 0, 2));
    assertThat(t.size()).isZero();
    assertThat(t.byteSize()).isZero();
    assertThat(t.dataBuffers()).allMatch(b -> b.remaining() == 0);
    assertThat(t.reshape(0, 5)).isEqualTo(Tensor.zeros(DType.INT64, Shape.of(0, 5)));
  }

  @Test
  void reshape_contiguous_sharesStorage() {
    Tensor t = Tensor.ofInts(Shape.of(2, 3), 0, 1, 2, 3, 4, 5);
    Tensor r = t.reshape(3, -1);
    assertThat(r.shape()).isEqualTo(Shape.of(3, 2));
    assertThat(r.getInt(5)).isEqualTo(5);
    assertThat(r.sharesStorageWith(t)).isTrue();
  }

  @Test
  void reshape_wrongCount_throwsNamingBothShapes() {
    Tensor t = Tensor.ofInts(Shape.of(2, 3), 0, 1, 2, 3, 4, 5);
    assertThatThrownBy(() -> t.reshape(4, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[2,3]")
        .hasMessageContaining("[4,2]");
    assertThatThrownBy(() -> t.reshape(-1, -1)).hasMessageContaining("more than one -1");
  }

  @Test
  void slice_innerAxis_isStridedViewWithCorrectValues() {
    Tensor t = Tensor.ofInts(Shape.of(3, 4), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    Tensor s = t.slice(1, 1, 3);
    assertThat(s.shape()).isEqualTo(Shape.of(3, 2));
    assertThat(s.isContiguous()).isFalse();
    assertThat(s).isEqualTo(Tensor.ofInts(Shape.of(3, 2), 1, 2, 5, 6, 9, 10));
    assertThat(s.contiguous().isContiguous()).isTrue();
    assertThat(s.reshape(6).getInt(3)).isEqualTo(6);
  }

  @Test
  void slice_outerAxis_staysContiguousView() {
    Tensor t = Tensor.ofInts(Shape.of(3, 2), 0, 1, 2, 3, 4, 5);
    Tensor s = t.slice(0, 1, 3);
    assertThat(s.isContiguous()).isTrue();
    assertThat(s.sharesStorageWith(t)).isTrue();
    assertThat(s).isEqualTo(Tensor.ofInts(Shape.of(2, 2), 2, 3, 4, 5));
  }

  @Test
  void slice_outOfRange_throws() {
    Tensor t = Tensor.ofInts(Shape.of(3), 0, 1, 2);
    assertThatThrownBy(() -> t.slice(0, 2, 4)).isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("axis 0 of size 3");
    assertThatThrownBy(() -> t.slice(1, 0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void builder_afterBuild_refusesMutation() {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(2));
    Tensor t = b.setFloat(0, 1f).build();
    assertThatThrownBy(() -> b.setFloat(1, 2f)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class);
    assertThat(t.getFloat(1)).isZero();
  }

  @Test
  void dataBuffers_areReadOnly() {
    Tensor t = Tensor.ofFloats(Shape.of(2), 1, 2);
    assertThat(t.dataBuffers()).allMatch(ByteBuffer::isReadOnly);
  }

  @Test
  void smallChunks_elementsAndBulkCopiesCrossChunkBoundaries() {
    // 16-byte chunks: 100 doubles span 50 chunks, the layout of a tensor over 2 GiB in miniature.
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT64, Shape.of(10, 10), 4);
    for (int i = 0; i < 100; i++) {
      b.setDouble(i, i * 0.5);
    }
    Tensor t = b.build();
    assertThat(t.dataBuffers()).hasSize(50);
    assertThat(t.getDouble(99)).isEqualTo(49.5);
    byte[] all = new byte[800];
    t.copyBytes(0, all, 0, 800);
    assertThat(ByteBuffer.wrap(all).order(java.nio.ByteOrder.LITTLE_ENDIAN).getDouble(8 * 37)).isEqualTo(18.5);
    assertThat(t).isEqualTo(Tensor.fromLittleEndian(DType.FLOAT64, Shape.of(10, 10), all));
    assertThat(t.slice(1, 3, 7).contiguous().getDouble(0)).isEqualTo(1.5);
  }

  @Test
  void wrap_readOnlyBufferAtOffset_viewsWithoutCopy() {
    ByteBuffer raw = ByteBuffer.allocate(13).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    raw.put((byte) 9).putFloat(1.5f).putFloat(-2f).putFloat(3f).flip().position(1);
    Tensor t = Tensor.wrap(DType.FLOAT32, Shape.of(3), raw.asReadOnlyBuffer());
    assertThat(t.toFloatArray()).containsExactly(1.5f, -2f, 3f);
    assertThat(raw.position()).isEqualTo(1);
    assertThat(t.reshape(1, 3).slice(1, 1, 3).contiguous().toFloatArray()).containsExactly(-2f, 3f);
    assertThatThrownBy(() -> Tensor.wrap(DType.FLOAT64, Shape.of(2), raw))
        .hasMessageContaining("needs 16 bytes, got 12");
    assertThatThrownBy(() -> Tensor.wrap(DType.STRING, Shape.of(2), raw)).hasMessageContaining("string");
  }

  @Test
  void writeData_readOnlyWrappedStorage_writesAllBytes() throws Exception {
    byte[] data = new byte[200_000];
    new java.util.Random(1).nextBytes(data);
    Tensor t = Tensor.wrap(DType.UINT8, Shape.of(200_000), ByteBuffer.wrap(data).asReadOnlyBuffer());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    t.writeData(out);
    assertThat(out.toByteArray()).isEqualTo(data);
  }

  @Test
  void readFully_shortStream_throwsEofWithCounts() {
    TensorBuilder b = TensorBuilder.allocate(DType.INT32, Shape.of(4));
    assertThatThrownBy(() -> b.readFully(new ByteArrayInputStream(new byte[10])))
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("10 of 16");
  }

  @Test
  void writeData_writesLittleEndianRowMajor() throws Exception {
    Tensor t = Tensor.ofInts(Shape.of(2, 2), 1, 2, 3, 4).slice(1, 1, 2);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    t.writeData(out);
    assertThat(out.toByteArray()).containsExactly(2, 0, 0, 0, 4, 0, 0, 0);
  }

  @Test
  void equals_largeTensorsDifferingInOneElement_areNotEqual() {
    float[] a = new float[10_000];
    float[] b = new float[10_000];
    b[9_999] = 1f;
    assertThat(Tensor.ofFloats(Shape.of(10_000), a)).isNotEqualTo(Tensor.ofFloats(Shape.of(10_000), b));
    assertThat(Tensor.ofFloats(Shape.of(10_000), a)).isEqualTo(Tensor.ofFloats(Shape.of(10_000), a.clone()));
  }

  @Test
  void equals_nanBitsAndNegativeZero_areExact() {
    Tensor a = Tensor.ofFloats(Shape.of(2), Float.NaN, 0f);
    assertThat(a).isEqualTo(Tensor.ofFloats(Shape.of(2), Float.NaN, 0f));
    assertThat(a).isNotEqualTo(Tensor.ofFloats(Shape.of(2), Float.NaN, -0f));
    assertThat(a).isNotEqualTo(Tensor.ofDoubles(Shape.of(2), Double.NaN, 0));
    assertThat(a.hashCode()).isEqualTo(Tensor.ofFloats(Shape.of(2), Float.NaN, 0f).hashCode());
  }

  @Test
  void equals_largeContiguousTensors_comparesEveryByte() {
    // Above 4 KiB equality goes through the data buffers; chunk layouts may differ.
    int n = 5000;
    TensorBuilder a = TensorBuilder.allocate(DType.FLOAT32, Shape.of(n));
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(n), 10);
    TensorBuilder c = TensorBuilder.allocate(DType.FLOAT32, Shape.of(n), 12);
    for (int i = 0; i < n; i++) {
      a.setFloat(i, i);
      b.setFloat(i, i);
      c.setFloat(i, i == n - 1 ? -1 : i);
    }
    Tensor ta = a.build();
    assertThat(ta).isEqualTo(b.build());
    assertThat(ta).isNotEqualTo(c.build());
    assertThat(ta).isNotEqualTo(Tensor.zeros(DType.FLOAT32, Shape.of(n)));
  }

  @ParameterizedTest
  @CsvSource({"30, 30", "4, 30", "30, 5", "4, 5"})
  void putBytes_fromTensor_copiesRowMajorBytesAcrossChunks(int srcShift, int dstShift) {
    TensorBuilder src = TensorBuilder.allocate(DType.FLOAT32, Shape.of(7, 6), srcShift);
    for (int i = 0; i < 42; i++) {
      src.setFloat(i, i);
    }
    // Columns 1..4 of rows 2..5: not contiguous, so copied in row-major order.
    Tensor view = src.build().slice(0, 2, 6).slice(1, 1, 5);
    TensorBuilder dst = TensorBuilder.allocate(DType.FLOAT32, Shape.of(20), dstShift);
    dst.putBytes(4 * 2, view, 4 * 3, 4 * 10);
    Tensor out = dst.build();

    for (int i = 0; i < 20; i++) {
      int k = i - 2 + 3;
      float want = i < 2 || i >= 12 ? 0f : (k / 4 + 2) * 6 + k % 4 + 1;
      assertThat(out.getFloat(i)).as("element " + i).isEqualTo(want);
    }
    assertThatThrownBy(() -> dst.putBytes(0, view, 0, 4))
        .isInstanceOf(IllegalStateException.class);
    TensorBuilder small = TensorBuilder.allocate(DType.FLOAT32, Shape.of(2));
    assertThatThrownBy(() -> small.putBytes(4, view, 0, 8))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> small.putBytes(0, view, 4 * 15, 8))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void allClose_withinTolerance_trueOutsideFalse() {
    Tensor a = Tensor.ofDoubles(Shape.of(3), 1.0, 1e6, Double.POSITIVE_INFINITY);
    assertThat(a.allClose(Tensor.ofDoubles(Shape.of(3), 1.0 + 1e-9, 1e6 + 1, Double.POSITIVE_INFINITY))).isTrue();
    assertThat(a.allClose(Tensor.ofDoubles(Shape.of(3), 1.001, 1e6, Double.POSITIVE_INFINITY))).isFalse();
    assertThat(a.allClose(Tensor.ofDoubles(Shape.of(3), 1.0, 1e6, Double.NEGATIVE_INFINITY))).isFalse();
    assertThat(Tensor.ofFloats(Shape.of(1), Float.NaN).allClose(Tensor.ofFloats(Shape.of(1), Float.NaN))).isTrue();
    assertThat(a.allClose(Tensor.ofDoubles(Shape.of(1, 3), 1.0, 1e6, Double.POSITIVE_INFINITY))).isFalse();
  }

  @Test
  void allClose_complex_usesMagnitudeOfDifference() {
    Tensor a = TensorBuilder.allocate(DType.COMPLEX128, Shape.of(1)).setComplex(0, 3, 4).build();
    Tensor b = TensorBuilder.allocate(DType.COMPLEX128, Shape.of(1)).setComplex(0, 3, 4 + 1e-6).build();
    Tensor c = TensorBuilder.allocate(DType.COMPLEX128, Shape.of(1)).setComplex(0, 3, 4.1).build();
    assertThat(a.allClose(b)).isTrue();
    assertThat(a.allClose(c)).isFalse();
    assertThat(a.getReal(0)).isEqualTo(3);
    assertThat(a.getImag(0)).isEqualTo(4);
  }

  @Test
  void halfPrecision_roundTripsThroughFloat() {
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT16, Shape.of(3));
    b.setFloat(0, 1.5f).setFloat(1, 65504f).setFloat(2, 1e-8f);
    Tensor t = b.build();
    assertThat(t.getFloat(0)).isEqualTo(1.5f);
    assertThat(t.getFloat(1)).isEqualTo(65504f);
    assertThat(t.getFloat(2)).isZero();
    Tensor bf = TensorBuilder.allocate(DType.BFLOAT16, Shape.of(2)).setFloat(0, 1.00390625f).setFloat(1, 3f).build();
    // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: round to even gives 1.
    assertThat(bf.getFloat(0)).isEqualTo(1f);
    assertThat(bf.getFloat(1)).isEqualTo(3f);
  }

  @Test
  void getAsDouble_unsigned_readsUnsignedValue() {
    Tensor u8 = TensorBuilder.allocate(DType.UINT8, Shape.of(1)).setByte(0, (byte) 0xFF).build();
    Tensor u64 = TensorBuilder.allocate(DType.UINT64, Shape.of(1)).setLong(0, -1L).build();
    Tensor u32 = TensorBuilder.allocate(DType.UINT32, Shape.of(1)).setFromDouble(0, 4e9).build();
    assertThat(u8.getAsDouble(0)).isEqualTo(255);
    assertThat(u64.getAsDouble(0)).isEqualTo(0x1p64);
    assertThat(u32.getAsDouble(0)).isEqualTo(4e9);
  }

  @Test
  void accessor_wrongDtype_throwsNamingBoth() {
    Tensor t = Tensor.ofInts(Shape.of(1), 7);
    assertThatThrownBy(() -> t.getFloat(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("int32").hasMessageContaining("float32");
    assertThatThrownBy(() -> t.getInt(1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void zeros_everyDtype_equalsItselfAndReportsItemSize(DType dtype) {
    Tensor t = Tensor.zeros(dtype, Shape.of(2, 2));
    assertThat(t).isEqualTo(Tensor.zeros(dtype, Shape.of(2, 2)));
    assertThat(t.byteSize()).isEqualTo(4L * dtype.itemSize());
    assertThat(DType.fromName(dtype.typeName())).isEqualTo(dtype);
  }

  @Test
  void strings_sliceAndEquality() {
    Tensor t = Tensor.ofStrings(Shape.of(2, 2), "a", "é", "日本", "");
    assertThat(t.slice(1, 1, 2)).isEqualTo(Tensor.ofStrings(Shape.of(2, 1), "é", ""));
    assertThatThrownBy(t::dataBuffers).isInstanceOf(IllegalStateException.class);
    assertThat(t.toString()).startsWith("string[2,2]");
  }

  @Test
  void shape_overflowAndNegative_rejected() {
    assertThatThrownBy(() -> Shape.of(1L << 40, 1L << 40)).hasMessageContaining("more elements");
    assertThatThrownBy(() -> Shape.of(2, -1)).hasMessageContaining("negative dimension -1 at axis 1");
    assertThat(Shape.of(10, 5).toString()).isEqualTo("[10,5]");
  }

  @Test
  void dtypeFromName_unknown_listsKnown() {
    assertThatThrownBy(() -> DType.fromName("float8")).hasMessageContaining("float8").hasMessageContaining("bfloat16");
  }

  @Test
  void fromLittleEndian_wrongLength_throws() {
    assertThatThrownBy(() -> Tensor.fromLittleEndian(DType.INT16, Shape.of(3), new byte[5]))
        .hasMessageContaining("needs 6 bytes, got 5");
    assertThat(List.of(DType.values())).hasSize(16);
  }

  @Test
  void wrapList_powerOfTwoPieces_viewsThemInOrderWithoutCopying() {
    ByteBuffer a = ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    ByteBuffer b = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 4; i++) {
      a.putFloat(i * 4, i);
    }
    b.putFloat(0, 4).putFloat(4, 5);
    Tensor t = Tensor.wrap(DType.FLOAT32, Shape.of(2, 3), List.of(a, b));
    assertThat(t.toFloatArray()).containsExactly(0, 1, 2, 3, 4, 5);
    a.putFloat(0, 9);
    assertThat(t.getFloat(0)).isEqualTo(9f);
    assertThat(t.dataBuffers()).hasSize(2);
  }

  @Test
  void wrapList_unevenPieces_rejected() {
    ByteBuffer a = ByteBuffer.allocate(12);
    ByteBuffer b = ByteBuffer.allocate(12);
    assertThatThrownBy(() -> Tensor.wrap(DType.FLOAT32, Shape.of(6), List.of(a, b)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
    assertThatThrownBy(() -> Tensor.wrap(DType.FLOAT32, Shape.of(10),
            List.of(ByteBuffer.allocate(16), ByteBuffer.allocate(8), ByteBuffer.allocate(16))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("buffer 1 holds 8 bytes");
    assertThatThrownBy(() -> Tensor.wrap(DType.FLOAT32, Shape.of(3), List.of(ByteBuffer.allocate(16))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 12 bytes, got 16");
  }

  @Test
  void equals_largeTensorsDifferingInLastByte_notEqual() {
    TensorBuilder a = TensorBuilder.allocate(DType.FLOAT32, Shape.of(5000));
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, Shape.of(5000));
    b.setFloat(4999, 1f);
    Tensor x = a.build();
    Tensor y = b.build();
    assertThat(x).isNotEqualTo(y);
    assertThat(x).isEqualTo(Tensor.zeros(DType.FLOAT32, Shape.of(5000)));
  }

  @Test
  void item_oneElementOfAnyRealDtype_givesTheValueAsDouble() {
    assertThat(Tensor.scalar(2.5f).item()).isEqualTo(2.5);
    assertThat(Tensor.ofInts(Shape.of(1, 1), -7).item()).isEqualTo(-7.0);
    assertThat(Tensor.ofBooleans(Shape.of(1), true).item()).isEqualTo(1.0);
    assertThat(Tensor.fromLittleEndian(DType.UINT8, Shape.scalar(), new byte[] {(byte) 200}).item())
        .isEqualTo(200.0);
  }

  @Test
  void floatItem_float32Scalar_givesTheFloatUnrounded() {
    assertThat(Tensor.scalar(0.1f).floatItem()).isEqualTo(0.1f);
    assertThat(Tensor.ofFloats(Shape.of(1), 3.25f).floatItem()).isEqualTo(3.25f);
  }

  @Test
  void longItem_integerScalars_giveTheirValues() {
    assertThat(Tensor.ofLongs(Shape.scalar(), 1L << 40).longItem()).isEqualTo(1L << 40);
    assertThat(Tensor.ofInts(Shape.of(1), -3).longItem()).isEqualTo(-3L);
    assertThat(Tensor.fromLittleEndian(DType.UINT32, Shape.scalar(),
        new byte[] {-1, -1, -1, -1}).longItem()).isEqualTo(0xFFFF_FFFFL);
    assertThat(Tensor.ofBooleans(Shape.scalar(), false).longItem()).isZero();
  }

  @Test
  void stringItem_stringScalar_givesTheString() {
    assertThat(Tensor.ofStrings(Shape.scalar(), "client-3").stringItem()).isEqualTo("client-3");
  }

  @Test
  void item_moreThanOneElement_throwsNamingTheShape() {
    Tensor t = Tensor.ofFloats(Shape.of(2), 1, 2);
    assertThatThrownBy(t::item).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exactly one element").hasMessageContaining("[2]");
    assertThatThrownBy(t::floatItem).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Tensor.zeros(DType.INT64, Shape.of(0)).longItem())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void itemAccessors_wrongDtype_throwNamingTheDtype() {
    assertThatThrownBy(() -> Tensor.scalar(1.0).floatItem())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("float64");
    assertThatThrownBy(() -> Tensor.scalar(1f).longItem())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("float32");
    assertThatThrownBy(() -> Tensor.fromLittleEndian(DType.UINT64, Shape.scalar(), new byte[8])
        .longItem()).isInstanceOf(IllegalStateException.class).hasMessageContaining("uint64");
    assertThatThrownBy(() -> Tensor.ofStrings(Shape.scalar(), "a").item())
        .isInstanceOf(IllegalStateException.class);
  }
}
