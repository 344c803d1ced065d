package io.tributary.flower.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InitialParametersTest {
  @Test
  void given_unorderedMap_tensorsSortedByName() {
    InitialParameters p = InitialParameters.given(
        Map.of("w", Tensor.scalar(1f), "b", Tensor.scalar(2f), "a", Tensor.scalar(3f)));
    assertThat(((InitialParameters.Given) p).tensors().keySet()).containsExactly("a", "b", "w");
  }

  @Test
  void given_linkedHashMap_keepsInsertionOrder() {
    Map<String, Tensor> m = new LinkedHashMap<>();
    m.put("w", Tensor.scalar(1f));
    m.put("b", Tensor.scalar(2f));
    InitialParameters p = InitialParameters.given(m);
    assertThat(((InitialParameters.Given) p).tensors().keySet()).containsExactly("w", "b");
  }

  @Test
  void given_noTensors_throws() {
    assertThatThrownBy(() -> InitialParameters.given(Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no tensors");
  }
}
