package io.tributary.flower;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a user who only speaks the protocol gets: this module's tests run on its own class path,
 * which has no graphs, kernels or datasets (the pom excludes them from tributary-learning, whose
 * graph-free algorithm definitions and round loop are all the server uses), so every other test
 * here (the server's rounds included) also shows that the protocol runs without them.
 */
class ModuleBoundaryTest {
  @ParameterizedTest
  @ValueSource(strings = {"io.tributary.graph.Graph", "io.tributary.graph.ops.GraphExecutor",
      "io.tributary.data.Dataset", "org.bytedeco.javacpp.Loader"})
  void forName_graphDataOrNativeKernelClass_notOnTheClassPath(String name) {
    assertThatThrownBy(() -> Class.forName(name, false, getClass().getClassLoader()))
        .isInstanceOf(ClassNotFoundException.class);
  }
}
