package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user who only speaks the protocol gets: this module's tests run on its own class path,
 * which has no graphs, kernels or datasets (tributary-learning, whose algorithm definitions and
 * round loop the server uses, depends on neither; the graph-backed builders are
 * tributary-learning-graph's), so every other test here (the server's rounds included) also
 * shows that the protocol runs without them.
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
