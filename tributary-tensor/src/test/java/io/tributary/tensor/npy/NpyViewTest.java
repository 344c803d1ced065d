package io.tributary.tensor.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NpyViewTest {

  @Test
  void view_littleEndianCOrder_equalsCopyingDecodeAndSeesInput() throws Exception {
    Tensor t = Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6);
    byte[] npy = Npy.toBytes(t);
    Tensor viewed = Npy.view(npy);
    assertThat(viewed).isEqualTo(Npy.fromBytes(npy)).isEqualTo(t);
    // Proof that no copy was made: the view reads the handed-over array itself.
    npy[npy.length - 4] = 0;
    npy[npy.length - 3] = 0;
    npy[npy.length - 2] = 0;
    npy[npy.length - 1] = 0;
    assertThat(viewed.getFloat(5)).isZero();
  }

  @Test
  void view_bigEndianInput_convertsIntoNewTensor() throws Exception {
    String header = "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }";
    byte[] npy = npy(header, new byte[] {0, 0, 0, 1, 0, 0, 1, 0});
    Tensor t = Npy.view(npy);
    assertThat(t).isEqualTo(Tensor.ofInts(Shape.of(2), 1, 256));
    npy[npy.length - 1] = 9;
    assertThat(t.getInt(0)).isEqualTo(1);
  }

  @Test
  void view_fortranOrder_convertsToRowMajor() throws Exception {
    String header = "{'descr': '<u1', 'fortran_order': True, 'shape': (2, 2), }";
    Tensor t = Npy.view(npy(header, new byte[] {1, 3, 2, 4}));
    assertThat(t.dtype()).isEqualTo(DType.UINT8);
    assertThat(t.toDoubleArray()).containsExactly(1, 2, 3, 4);
  }

  @Test
  void view_truncatedData_throwsBeforeWrapping() {
    String header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }";
    assertThatThrownBy(() -> Npy.view(npy(header, new byte[16])))
        .isInstanceOf(NpyException.class)
        .hasMessageContaining("truncated");
  }

  /** An NPY 1.0 file with {@code header} padded as numpy pads it, followed by {@code data}. */
  private static byte[] npy(String header, byte[] data) {
    int unpadded = 10 + header.length() + 1;
    int total = (unpadded + 63) / 64 * 64;
    StringBuilder h = new StringBuilder(header);
    while (10 + h.length() + 1 < total) {
      h.append(' ');
    }
    h.append('\n');
    byte[] hb = h.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[10 + hb.length + data.length];
    byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    System.arraycopy(magic, 0, out, 0, 8);
    out[8] = (byte) hb.length;
    out[9] = (byte) (hb.length >> 8);
    System.arraycopy(hb, 0, out, 10, hb.length);
    System.arraycopy(data, 0, out, 10 + hb.length, data.length);
    return out;
  }
}
