package io.tributary.runtime.executor.internal.pass;

import static org.assertj.core.api.Assertions.assertThat;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;


class TensorBytesTest {
  private static final Tensor FOUR_FLOATS = Tensor.ofFloats(Shape.of(4), 1f, 2f, 3f, 4f);

  @Test
  void of_tensorAndStruct_countsTensorBytes() {
    assertThat(TensorBytes.of(FOUR_FLOATS)).isEqualTo(16);
    assertThat(TensorBytes.of(StructValue.named("a", FOUR_FLOATS, "b", Tensor.scalar(1f))))
        .isEqualTo(20);
  }

  @Test
  void of_sequence_notWalked() {
    assertThat(TensorBytes.of(List.of(FOUR_FLOATS, FOUR_FLOATS))).isZero();
    assertThat(TensorBytes.of("not a value")).isZero();
  }

  @Test
  void withSequences_sequence_countsElementsAndTheirTensors() {
    assertThat(TensorBytes.withSequences(List.of(FOUR_FLOATS, FOUR_FLOATS))).isEqualTo(2 + 32);
    assertThat(TensorBytes.withSequences(List.of(StructValue.named("x", FOUR_FLOATS))))
        .isEqualTo(1 + 16);
    assertThat(TensorBytes.withSequences(List.of())).isZero();
  }
}
