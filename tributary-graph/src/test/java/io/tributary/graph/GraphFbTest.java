package io.tributary.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.autodiff.Autodiff;
import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GraphFbTest {
  static Stream<Graph> graphs() {
    Model mlp = Models.fedAvg2nn();
    return Stream.of(
        Models.mclr().graph(),
        mlp.graph(),
        Models.fedAvgCnn().graph(),
        Autodiff.gradients(mlp.graph(), mlp.loss(), mlp.trainableNames()).graph(),
        withEveryArgumentKind());
  }

  /** A graph whose ops use all four argument lists, an integer list and a constant. */
  static Graph withEveryArgumentKind() {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT64, -1, 3, 4);
    String c = b.constant("c", Tensor.ofDoubles(Shape.of(4), 0.5, -0.0, Double.NaN, 1e300));
    String y = b.op("add", x, c);
    String t = b.op("transpose", OpArgs.builder().putIntList("perm", 0, 2, 1).build(), y);
    String s = b.op("scale", OpArgs.builder().putFloat("factor", Math.PI).build(), t);
    b.op("reduce_sum", OpArgs.builder().putIntList("axes", 1).putBool("keep_dims", true)
        .putDType("accumulate_as", DType.FLOAT64).build(), s);
    return b.build();
  }

  @ParameterizedTest
  @MethodSource("graphs")
  void roundTrip_graph_equalGraphAndStableBytes(Graph g) throws GraphFormatException {
    byte[] bytes = GraphFb.toBytes(g);
    Graph back = GraphFb.fromBytes(bytes);
    assertThat(back).isEqualTo(g);
    assertThat(back.problems()).isEmpty();
    assertThat(GraphFb.toBytes(back)).isEqualTo(bytes);
    assertThat(GraphFb.toBytes(g)).isEqualTo(bytes);
  }

  /** Found by GraphFbFuzzTest: the placeholder took the constant's data and failed to read. */
  @Test
  void roundTrip_placeholderNamedLikeConstant_readsBackEqual() throws GraphFormatException {
    Graph g = Graph.of(
        List.of(new Variable("x", DType.FLOAT32, PartialShape.of(2), VariableKind.CONSTANT),
            new Variable("x", DType.FLOAT32, PartialShape.of(-1), VariableKind.PLACEHOLDER)),
        List.of(), Map.of("x", Tensor.ofFloats(Shape.of(2), 1, 2)));
    Graph back = GraphFb.fromBytes(GraphFb.toBytes(g));
    assertThat(back).isEqualTo(g);
    assertThat(back.problems()).isNotEmpty();
  }

  @Test
  void toBytes_anyGraph_carriesFileIdentifierAndVersion() {
    byte[] bytes = GraphFb.toBytes(Models.mclr().graph());
    assertThat(new String(bytes, 4, 4, StandardCharsets.US_ASCII)).isEqualTo("TRGF");
  }

  @Test
  void roundTrip_opArgs_keepsFourParallelLists() throws GraphFormatException {
    Graph back = GraphFb.fromBytes(GraphFb.toBytes(withEveryArgumentKind()));
    Op reduce = back.ops().stream().filter(o -> o.type().equals("reduce_sum")).findFirst()
        .orElseThrow();
    assertThat(reduce.args().intNames()).containsExactly("axes#len", "axes#0");
    assertThat(reduce.args().boolNames()).containsExactly("keep_dims");
    assertThat(reduce.args().dtypeValues()).containsExactly(DType.FLOAT64);
    assertThat(reduce.args().getIntList("axes")).containsExactly(1L);
    Op scale = back.ops().stream().filter(o -> o.type().equals("scale")).findFirst().orElseThrow();
    assertThat(scale.args().getFloat("factor", 0)).isEqualTo(Math.PI);
    assertThat(back.constants().get("c")).isEqualTo(withEveryArgumentKind().constants().get("c"));
  }

  @Test
  void fromBytes_wrongIdentifier_throws() {
    byte[] bytes = GraphFb.toBytes(Models.mclr().graph());
    bytes[4] = 'X';
    assertThatThrownBy(() -> GraphFb.fromBytes(bytes)).isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("identifier");
  }

  @Test
  void fromBytes_tooShort_throws() {
    assertThatThrownBy(() -> GraphFb.fromBytes(new byte[3])).isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("too short");
  }

  @Test
  void fromBytes_truncatedOrCorrupted_throwsFormatExceptionOnly() {
    byte[] good = GraphFb.toBytes(Models.fedAvg2nn().graph());
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(9);
    for (int trial = 0; trial < 300; trial++) {
      byte[] bad = good.clone();
      if (trial % 3 == 0) {
        bad = java.util.Arrays.copyOf(good, 8 + rnd.nextInt(good.length - 8));
      } else {
        for (int k = 0; k < 4; k++) {
          bad[8 + rnd.nextInt(bad.length - 8)] = (byte) rnd.nextInt(256);
        }
      }
      try {
        Graph g = GraphFb.read(ByteBuffer.wrap(bad));
        g.problems();
      } catch (GraphFormatException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }

  @Test
  void fromBytes_newerFormatVersion_throws() {
    com.google.flatbuffers.FlatBufferBuilder b = new com.google.flatbuffers.FlatBufferBuilder();
    int root = io.tributary.graph.internal.fb.FbGraph.createFbGraph(b, GraphFb.FORMAT_VERSION + 1,
        0, 0);
    b.finish(root, "TRGF");
    assertThatThrownBy(() -> GraphFb.fromBytes(b.sizedByteArray()))
        .isInstanceOf(GraphFormatException.class).hasMessageContaining("version 2");
  }

  @Test
  void fromBytes_unknownOpType_readsButValidationNamesTheOp() throws GraphFormatException {
    Graph g = Graph.of(
        List.of(new Variable("x", DType.FLOAT32, PartialShape.of(2), VariableKind.PLACEHOLDER),
            new Variable("y", DType.FLOAT32, PartialShape.of(2), VariableKind.ARRAY)),
        List.of(new Op("evil", "java.lang.Runtime", List.of("x"), List.of("y"), OpArgs.none())),
        Map.of());
    Graph back = GraphFb.fromBytes(GraphFb.toBytes(g));
    assertThat(back.problems()).singleElement().satisfies(p -> {
      assertThat(p.kind()).isEqualTo(GraphProblem.Kind.UNKNOWN_OP_TYPE);
      assertThat(p.opName()).isEqualTo("evil");
    });
  }
}
