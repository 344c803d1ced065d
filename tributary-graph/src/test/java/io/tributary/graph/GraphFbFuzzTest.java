package io.tributary.graph;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes the {@code graph.fb} reader: any bytes read as a graph or fail with
 * {@link GraphFormatException}; validating what was read lists problems without throwing anything
 * else, and a graph that reads writes bytes that read back equal.
 */
class GraphFbFuzzTest {
  @FuzzTest(maxDuration = "5s")
  void fromBytes(byte[] input) throws GraphFormatException {
    Graph read;
    try {
      read = GraphFb.fromBytes(input);
    } catch (GraphFormatException e) {
      return;
    }
    assertThat(read.problems()).isNotNull();
    byte[] written;
    try {
      written = GraphFb.toBytes(read);
    } catch (IllegalArgumentException stringConstant) {
      assertThat(read.constants().values()).anyMatch(t -> t.dtype() == io.tributary.tensor.DType.STRING);
      return;
    }
    Graph back = GraphFb.fromBytes(written);
    assertThat(back).isEqualTo(read);
    assertThat(GraphFb.toBytes(back)).isEqualTo(written);
  }
}
