package io.tributary.flower.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Tensors to Flower numpy Arrays and back, for every dtype numpy and Tributary share. */
class ArrayTest {
  static Tensor sample(DType d) {
    if (d == DType.STRING) {
      return Tensor.ofStrings(Shape.of(2, 2), "a", "bc", "\u00e9\u00e9\u00e9", "");
    }
    TensorBuilder b = TensorBuilder.allocate(d, Shape.of(2, 3));
    byte[] raw = new byte[(int) (6 * d.itemSize())];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) (i * 37 + 11);
    }
    if (d == DType.BOOL) {
      for (int i = 0; i < raw.length; i++) {
        raw[i] = (byte) (i % 2);
      }
    }
    return Tensor.fromLittleEndian(d, Shape.of(2, 3), raw);
  }

  @ParameterizedTest
  @EnumSource(value = DType.class, names = "BFLOAT16", mode = EnumSource.Mode.EXCLUDE)
  void fromTensor_everyNumpyDtype_roundTripsLosslessly(DType d) throws Exception {
    Tensor t = sample(d);
    Array a = Array.fromTensor(t);
    assertThat(a.stype()).isEqualTo(Array.NUMPY);
    assertThat(a.shape()).containsExactly(2, d == DType.STRING ? 2 : 3);
    assertThat(a.dtype()).isEqualTo(d == DType.STRING ? "<U3" : d.typeName());
    Tensor back = a.toTensor();
    assertThat(back.dtype()).isEqualTo(d);
    assertThat(back).isEqualTo(t);
  }

  @Test
  void fromTensor_bfloat16_refusedAsNumpyLacksIt() {
    assertThatThrownBy(() -> Array.fromTensor(Tensor.zeros(DType.BFLOAT16, Shape.of(2))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toTensor_shapeFieldDisagreesWithNpy_refused() {
    Array good = Array.fromTensor(Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, 6));
    Array bad = new Array("float32", new int[] {3, 2}, Array.NUMPY, good.data());
    assertThatThrownBy(bad::toTensor).isInstanceOf(RecordException.class)
        .hasMessageContaining("shape");
  }

  @Test
  void toTensor_dtypeFieldDisagreesWithNpy_refused() {
    Array good = Array.fromTensor(Tensor.ofFloats(Shape.of(2), 1, 2));
    Array bad = new Array("int32", new int[] {2}, Array.NUMPY, good.data());
    assertThatThrownBy(bad::toTensor).isInstanceOf(RecordException.class)
        .hasMessageContaining("dtype");
  }

  @Test
  void toTensor_unknownNpyDtype_refused() {
    byte[] data = Array.fromTensor(Tensor.ofFloats(Shape.of(2), 1, 2)).data();
    String text = new String(data, java.nio.charset.StandardCharsets.ISO_8859_1)
        .replace("'<f4'", "'<M8'");
    Array bad = new Array("datetime64", new int[] {2}, Array.NUMPY,
        text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertThatThrownBy(bad::toTensor).isInstanceOf(RecordException.class);
  }

  @Test
  void toTensor_otherStype_refused() {
    Array bad = new Array("float32", new int[] {1}, "torch.tensor", new byte[4]);
    assertThatThrownBy(bad::toTensor).isInstanceOf(RecordException.class)
        .hasMessageContaining("stype");
  }

  @Test
  void arrayRecord_toTensors_keepsOrderAndNamesTheBadArray() throws Exception {
    Map<String, Tensor> m = new LinkedHashMap<>();
    m.put("z", Tensor.ofFloats(Shape.of(1), 1));
    m.put("a", Tensor.ofLongs(Shape.of(1), 2));
    ArrayRecord r = ArrayRecord.fromTensors(m);
    assertThat(r.toTensors().sequencedKeySet()).containsExactly("z", "a");
    Map<String, Array> arrays = new LinkedHashMap<>(r.arrays());
    arrays.put("broken", new Array("float32", new int[] {1}, Array.NUMPY, new byte[] {1, 2}));
    assertThatThrownBy(() -> new ArrayRecord(arrays).toTensors())
        .isInstanceOf(RecordException.class).hasMessageContaining("'broken'");
  }
}
