package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The bulk layout conversions agree with element-by-element definitions, across chunk borders. */
class LayoutsTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(DType.FLOAT32, Shape.of(70, 130)),
        Arguments.of(DType.INT8, Shape.of(3, 65, 2)),
        Arguments.of(DType.COMPLEX128, Shape.of(5, 1, 67)),
        Arguments.of(DType.INT16, Shape.of(2, 3, 4, 5)),
        Arguments.of(DType.FLOAT64, Shape.of(129, 1)),
        Arguments.of(DType.UINT64, Shape.of(2, 1, 3)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fortranToC_multiChunkBuffers_matchesElementwiseTranspose(DType dtype, Shape shape) {
    Tensor columnMajor = TestTensors.patterned(dtype, shape, 3, 4);
    TensorBuilder b = TensorBuilder.allocate(dtype, shape, 4);
    assertThat(b.writableBuffers()).hasSizeGreaterThan(1);
    Layouts.fortranToC(columnMajor.dataBuffers(), shape, dtype.itemSize(), b.writableBuffers());
    Tensor actual = b.build();

    int item = dtype.itemSize();
    long[] dims = shape.dims();
    byte[] src = new byte[(int) columnMajor.byteSize()];
    columnMajor.copyBytes(0, src, 0, src.length);
    byte[] want = new byte[src.length];
    for (long i = 0; i < shape.size(); i++) {
      long rest = i;
      long colOffset = 0;
      long colStride = 1;
      long[] index = new long[dims.length];
      for (int k = dims.length - 1; k >= 0; k--) {
        index[k] = rest % dims[k];
        rest /= dims[k];
      }
      for (int k = 0; k < dims.length; k++) {
        colOffset += index[k] * colStride;
        colStride *= dims[k];
      }
      System.arraycopy(src, (int) colOffset * item, want, (int) i * item, item);
    }
    assertThat(actual).isEqualTo(Tensor.fromLittleEndian(dtype, shape, want));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void swapBytes_multiChunkBuffers_reversesEachUnit(DType dtype, Shape shape) {
    int unit = dtype.isComplex() ? dtype.itemSize() / 2 : dtype.itemSize();
    if (unit == 1) {
      return;
    }
    Tensor original = TestTensors.patterned(dtype, shape, 9);
    TensorBuilder b = TensorBuilder.allocate(dtype, shape, 4);
    byte[] bytes = new byte[(int) original.byteSize()];
    original.copyBytes(0, bytes, 0, bytes.length);
    b.putBytes(0, bytes, 0, bytes.length);
    List<ByteBuffer> buffers = b.writableBuffers();
    Layouts.swapBytes(buffers, unit);
    byte[] want = bytes.clone();
    for (int at = 0; at < want.length; at += unit) {
      for (int k = 0; k < unit; k++) {
        want[at + k] = bytes[at + unit - 1 - k];
      }
    }
    assertThat(b.build()).isEqualTo(Tensor.fromLittleEndian(dtype, shape, want));
  }
}
