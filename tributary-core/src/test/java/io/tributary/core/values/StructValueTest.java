package io.tributary.core.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StructValueTest {
  @Test
  void named_elements_areReachableByNameAndIndex() {
    StructValue s = StructValue.named("a", 1, "b", "two");
    assertThat(s.size()).isEqualTo(2);
    assertThat(s.get("b")).isEqualTo("two");
    assertThat(s.get(0)).isEqualTo(1);
    assertThat(s.names()).containsExactly(Optional.of("a"), Optional.of("b"));
    assertThat(s).hasToString("<a=1,b=two>");
  }

  @Test
  void equals_sameNamesAndValues_isEqual() {
    assertThat(StructValue.named("a", 1)).isEqualTo(StructValue.named("a", 1))
        .hasSameHashCodeAs(StructValue.named("a", 1))
        .isNotEqualTo(StructValue.of(1))
        .isNotEqualTo(StructValue.named("b", 1));
  }

  @Test
  void of_badInput_throwsNamingTheProblem() {
    assertThatThrownBy(() -> StructValue.named("a", 1, "a", 2))
        .hasMessageContaining("two elements named 'a'");
    assertThatThrownBy(() -> StructValue.named("a", 1, "b"))
        .hasMessageContaining("name, value pairs");
    assertThatThrownBy(() -> StructValue.named(1, 1)).hasMessageContaining("not a name");
    assertThatThrownBy(() -> StructValue.of(List.of(Optional.empty()), List.of(1, 2)))
        .hasMessageContaining("1 names and 2 values");
    assertThatThrownBy(() -> StructValue.named("a", null))
        .hasMessageContaining("element 0 of a struct value is null");
    assertThatThrownBy(() -> StructValue.named("a", 1).get("z"))
        .hasMessageContaining("no element named 'z'");
  }

  @Test
  void tensor_namedTensorElement_returnsItTyped() {
    Tensor loss = Tensor.scalar(0.25f);
    StructValue metrics = StructValue.named("loss", loss, "n", Tensor.ofLongs(Shape.scalar(), 7));
    assertThat(metrics.tensor("loss")).isSameAs(loss);
    assertThat(metrics.tensor("loss").floatItem()).isEqualTo(0.25f);
    assertThat(metrics.tensor(1).longItem()).isEqualTo(7L);
  }

  @Test
  void struct_nestedStructElement_returnsItTyped() {
    StructValue model = StructValue.named("w", Tensor.scalar(1f));
    StructValue state = StructValue.named("model", model);
    assertThat(state.struct("model")).isSameAs(model);
    assertThat(state.struct(0).tensor("w").item()).isEqualTo(1.0);
  }

  @Test
  void tensor_elementOfAnotherKind_throwsNamingElementAndKind() {
    StructValue s = StructValue.named("model", StructValue.of(Tensor.scalar(1f)));
    assertThatThrownBy(() -> s.tensor("model")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'model'").hasMessageContaining("StructValue")
        .hasMessageContaining("not a Tensor");
    assertThatThrownBy(() -> s.struct("missing")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no element named 'missing'");
    assertThatThrownBy(() -> StructValue.of(Tensor.scalar(1f)).struct(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a StructValue");
  }
}
