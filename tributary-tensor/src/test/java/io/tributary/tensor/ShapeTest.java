package io.tributary.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShapeTest {
  /** Found by IdxFuzzTest: huge dimensions before a zero overflowed and were refused. */
  @Test
  void of_zeroAfterDimensionsWhoseProductOverflows_hasSizeZero() {
    Shape s = Shape.of(86, 16711680, 1666602582, 810964566, 0, 58883);
    assertThat(s.size()).isZero();
    assertThat(s.dims()).containsExactly(86, 16711680, 1666602582, 810964566, 0, 58883);
    assertThat(Shape.of(0, Long.MAX_VALUE, Long.MAX_VALUE).size()).isZero();
  }

  @Test
  void of_productOverflowsWithoutZero_throws() {
    assertThatThrownBy(() -> Shape.of(1L << 32, 1L << 32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more elements than a long can count");
  }

  @Test
  void of_negativeDimensionAfterZero_throws() {
    assertThatThrownBy(() -> Shape.of(0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative dimension -1 at axis 1");
  }
}
