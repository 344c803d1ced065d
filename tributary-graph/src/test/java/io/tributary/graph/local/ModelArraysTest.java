package io.tributary.graph.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.ops.NdArray;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelArraysTest {
  @Test
  void workingCopy_afterAChangeNotLent_copiesTheStartAgain() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(3), 1f, 2f, 3f)));
    ModelArrays.Copy w = arrays.workingCopy(start);
    w.arrays[0].floats()[1] = 99f;
    ModelArrays.Copy again = arrays.workingCopy(start);
    assertThat(again).isSameAs(w);
    assertThat(again.arrays[0].floats()).containsExactly(1f, 2f, 3f);
  }

  @Test
  void workingCopy_whileItsDeltaIsLent_handsOutAnotherCopy() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    ModelArrays.Copy w = arrays.workingCopy(start);
    w.arrays[0].floats()[0] = 4f;
    Tensor delta = w.difference(0, start[0], true);
    assertThat(delta.isDeferred()).isTrue();
    ModelArrays.Copy other = arrays.workingCopy(start);
    assertThat(other).isNotSameAs(w);
    other.arrays[0].floats()[0] = 100f;
    assertThat(delta.toFloatArray()).containsExactly(3f, 0f);
  }

  @Test
  void workingCopy_deltaMade_reusesTheCopyAsPutBack() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    ModelArrays.Copy w = arrays.workingCopy(start);
    w.arrays[0].floats()[1] = 7f;
    assertThat(w.difference(0, start[0], true).toFloatArray()).containsExactly(0f, 5f);
    ModelArrays.Copy again = arrays.workingCopy(start);
    assertThat(again).isSameAs(w);
    assertThat(again.arrays[0].floats()).containsExactly(1f, 2f);
  }

  @Test
  void workingCopy_deltaSummedAsItsLastRead_reusesTheCopyAsTheSumPutItBack() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    ModelArrays.Copy w = arrays.workingCopy(start);
    w.arrays[0].floats()[1] = 7f;
    Tensor delta = w.difference(0, start[0], true);
    delta.markLastRead();
    double[] sum = new double[2];
    TensorMath.addScaled(List.of(delta), new double[] {1.0}, sum, 0);
    assertThat(sum).containsExactly(0.0, 5.0);
    assertThat(w.arrays[0].floats()).containsExactly(1f, 2f);
    // The sum gave the copy back holding the start: handed out again, nothing is copied into it
    // (a start element changed behind the model's back shows that no copy was made).
    start[0].floats()[0] = 42f;
    ModelArrays.Copy again = arrays.workingCopy(start);
    assertThat(again).isSameAs(w);
    assertThat(again.arrays[0].floats()).containsExactly(1f, 2f);
  }

  @Test
  void workingCopy_deltaDiscarded_copiesTheStartBack() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    ModelArrays.Copy w = arrays.workingCopy(start);
    w.arrays[0].floats()[1] = 7f;
    w.difference(0, start[0], true).discard();
    ModelArrays.Copy again = arrays.workingCopy(start);
    assertThat(again).isSameAs(w);
    assertThat(again.arrays[0].floats()).containsExactly(1f, 2f);
  }

  @Test
  void workingCopy_everyCopyLent_makesTheOldestDeltaAndReusesItsCopy() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] start = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    List<ModelArrays.Copy> copies = new ArrayList<>();
    List<Tensor> deltas = new ArrayList<>();
    for (int k = 0; k < ModelArrays.MAX_COPIES; k++) {
      ModelArrays.Copy c = arrays.workingCopy(start);
      c.arrays[0].floats()[0] = 10f * (k + 1);
      copies.add(c);
      deltas.add(c.difference(0, start[0], true));
    }
    assertThat(copies).doesNotHaveDuplicates();
    ModelArrays.Copy reused = arrays.workingCopy(start);
    assertThat(reused).isSameAs(copies.get(0));
    assertThat(reused.arrays[0].floats()).containsExactly(1f, 2f);
    assertThat(deltas.get(0).isDeferred()).isFalse();
    assertThat(deltas.get(1).isDeferred()).isTrue();
    reused.arrays[0].floats()[0] = -5f;
    assertThat(deltas.get(0).toFloatArray()).containsExactly(9f, 0f);
    assertThat(deltas.get(7).toFloatArray()).containsExactly(79f, 0f);
  }

  @Test
  void workingCopy_anotherStart_copiesTheNewOne() {
    ModelArrays arrays = new ModelArrays();
    NdArray[] first = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 1f, 2f)));
    arrays.workingCopy(first);
    NdArray[] second = arrays.of(List.of(Tensor.ofFloats(Shape.of(2), 5f, 6f)));
    assertThat(arrays.workingCopy(second).arrays[0].floats()).containsExactly(5f, 6f);
  }
}
