package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a Flower user who adds SecAgg+ gets: tributary-privacy brings no graphs, kernels or
 * datasets (nor does tributary-learning, which it depends on), so this module's class path, on
 * which the secure rounds' tests run, has none.
 */
class ModuleBoundaryTest {
  @ParameterizedTest
  @ValueSource(strings = {"io.tributary.graph.Graph", "io.tributary.graph.ops.GraphExecutor",
      "io.tributary.data.Dataset", "io.tributary.learning.graph.GraphLearning",
      "org.bytedeco.javacpp.Loader"})
  void forName_graphDataOrNativeKernelClass_notOnTheClassPath(String name) {
    assertThatThrownBy(() -> Class.forName(name, false, getClass().getClassLoader()))
        .isInstanceOf(ClassNotFoundException.class);
  }
}
