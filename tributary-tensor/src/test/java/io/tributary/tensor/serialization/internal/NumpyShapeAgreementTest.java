package io.tributary.tensor.serialization.internal;

import static io.tributary.tensor.serialization.internal.WireBytes.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import io.tributary.tensor.serialization.internal.proto.Value.DataType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NPY reader and the {@code proto.ndarray} codec accept and refuse the same shapes: those
 * numpy itself can create (at most 64 dimensions, at most 2^63 - 1 bytes over the non-zero
 * dimensions).
 */
class NumpyShapeAgreementTest {
  private static final long TWO_62 = 1L << 62;

  /** An NPY descr, the matching proto dtype code and the item size in bytes. */
  private record Kind(String descr, int protoDtype, int itemSize) {}

  private static final Kind F4 = new Kind("<f4", DataType.DT_FLOAT_VALUE, 4);
  private static final Kind F8 = new Kind("<f8", DataType.DT_DOUBLE_VALUE, 8);
  private static final Kind U1 = new Kind("|u1", DataType.DT_UINT8_VALUE, 1);
  private static final Kind C16 = new Kind("<c16", DataType.DT_COMPLEX128_VALUE, 16);

  static Stream<Arguments> shapes() {
    return Stream.of(
        accepted(F4, 3, 4),
        accepted(F4),
        accepted(U1, 0),
        accepted(U1, ones(64)),
        refused(F4, ones(65)),
        accepted(F4, 0, 1L << 60),
        refused(F4, 0, TWO_62),
        refused(F8, 0, 1L << 60),
        accepted(U1, 0, TWO_62, 1),
        refused(U1, 0, TWO_62, 2),
        refused(U1, 0, TWO_62, 2, 0),
        refused(C16, 0, 1L << 59),
        accepted(C16, 0, 1L << 58),
        refused(F4, 1L << 32, 1L << 32),
        refused(U1, Long.MAX_VALUE, 2, 0));
  }

  private static long[] ones(int n) {
    long[] d = new long[n];
    Arrays.fill(d, 1);
    return d;
  }

  private static Arguments accepted(Kind k, long... dims) {
    return Arguments.of(k, dims, true);
  }

  private static Arguments refused(Kind k, long... dims) {
    return Arguments.of(k, dims, false);
  }

  @ParameterizedTest(name = "{0} {1} accepted={2}")
  @MethodSource("shapes")
  void decode_shape_npyAndProtoAgree(Kind kind, long[] dims, boolean accepted) throws Exception {
    long elements = elementsIfSmall(dims);
    byte[] npy = npy(kind, dims, accepted ? (int) (elements * kind.itemSize()) : 0);
    WireBytes value = message();
    if (kind.protoDtype() != 0) {
      value.varintField(1, kind.protoDtype());
    }
    if (dims.length > 0) {
      value.shape(dims);
    }
    if (accepted && elements > 0) {
      byte[] data = new byte[(int) (elements * kind.itemSize())];
      value.lenField(kind == U1 ? 18 : kind == F4 ? 3 : 2, data);
    }
    byte[] proto = value.build();
    if (accepted) {
      Tensor fromNpy = Npy.fromBytes(npy);
      Tensor fromProto = ValueCodec.decode(proto, 0, proto.length).tensor();
      assertThat(fromNpy.shape()).isEqualTo(Shape.of(dims));
      assertThat(fromProto.shape()).isEqualTo(Shape.of(dims));
    } else {
      assertThatThrownBy(() -> Npy.fromBytes(npy)).isInstanceOf(NpyException.class)
          .hasMessageContaining("numpy");
      assertThatThrownBy(() -> ValueCodec.decode(proto, 0, proto.length)).isInstanceOf(WireException.class)
          .hasMessageContaining("numpy");
    }
  }

  /** The element count, or 0 when a dimension is 0; refused shapes that overflow give -1. */
  private static long elementsIfSmall(long[] dims) {
    long n = 1;
    for (long d : dims) {
      if (d == 0) {
        return 0;
      }
      if (d > (1 << 20) || n * d > (1 << 20)) {
        n = -1;
      } else if (n >= 0) {
        n *= d;
      }
    }
    return n;
  }

  private static byte[] npy(Kind k, long[] dims, int dataBytes) {
    StringBuilder shape = new StringBuilder("(");
    for (long d : dims) {
      shape.append(d).append(", ");
    }
    String dict = "{'descr': '" + k.descr() + "', 'fortran_order': False, 'shape': " + shape + "), }";
    byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
    out.write(text.length & 0xFF);
    out.write(text.length >>> 8);
    out.writeBytes(text);
    out.writeBytes(new byte[dataBytes]);
    return out.toByteArray();
  }
}
