package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelArraysTest {
  @Test
  void workingCopy_afterAChangeNotRestored_copiesTheStartAgain() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(3), 1f, 2f, 3f)));
    NdArray[] w = arrays.workingCopy(start);
    w[0].floats()[1] = 99f;
    assertThat(arrays.workingCopy(start)[0].floats()).containsExactly(1f, 2f, 3f);
  }

  @Test
  void workingCopy_restoredForTheSameStart_keepsTheArraysAsTheyAre() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    NdArray[] w = arrays.workingCopy(start);
    arrays.restored(start);
    assertThat(arrays.workingCopy(start)).isSameAs(w);
    // Marked changed again by that call: a change is then undone by the next copy.
    w[0].floats()[0] = 7f;
    assertThat(arrays.workingCopy(start)[0].floats()).containsExactly(1f, 2f);
  }

  @Test
  void workingCopy_restoredForAnotherStart_copiesTheNewOne() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] first = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    arrays.workingCopy(first);
    arrays.restored(first);
    NdArray[] second = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 5f, 6f)));
    assertThat(arrays.workingCopy(second)[0].floats()).containsExactly(5f, 6f);
  }
}
