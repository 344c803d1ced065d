package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The server argument's bytes: the same bits back, and a clear refusal of what is not sent. */
class ValueCodecTest {
  @Test
  void nestedStructsOfTensors_roundTripBitForBit() {
    Tensor w = Tensor.ofFloats(Shape.of(2, 2), 0.1f, -0f, Float.MIN_VALUE, Float.NaN);
    Tensor step = Tensor.ofLongs(Shape.scalar(), 7L);
    StructValue model = StructValue.of(List.of(Optional.of("w")), List.of(w));
    StructValue state = StructValue.of(List.of(Optional.of("model"), Optional.empty()),
        List.of(model, step));
    StructValue back = (StructValue) ValueCodec.decode(ValueCodec.encode(state));
    assertThat(back.names()).isEqualTo(state.names());
    Tensor w2 = (Tensor) back.struct("model").get("w");
    assertThat(w2.dtype()).isEqualTo(w.dtype());
    assertThat(w2.shape()).isEqualTo(w.shape());
    assertThat(bytes(w2)).isEqualTo(bytes(w));
    assertThat(bytes((Tensor) back.get(1))).isEqualTo(bytes(step));
  }

  @Test
  void whatIsNotSent_isNamed() {
    StructValue s = StructValue.of(List.of(Optional.of("names")),
        List.of(Tensor.ofStrings(Shape.of(1), "a")));
    assertThatThrownBy(() -> ValueCodec.encode(s)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the server argument.names is a string tensor");
    assertThatThrownBy(() -> ValueCodec.encode(List.of())).hasMessageContaining("does not send");
  }

  private static byte[] bytes(Tensor t) {
    byte[] b = new byte[(int) t.byteSize()];
    t.copyBytes(0, b, 0, b.length);
    return b;
  }
}
