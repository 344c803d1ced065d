package io.tributary.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each broken graph yields exactly the expected problem, naming the op at fault. */
class GraphValidationTest {
  static Variable ph(String name, DType t, long... dims) {
    return new Variable(name, t, PartialShape.of(dims), VariableKind.PLACEHOLDER);
  }

  static Variable arr(String name, DType t, long... dims) {
    return new Variable(name, t, PartialShape.of(dims), VariableKind.ARRAY);
  }

  static Op op(String name, String type, List<String> in, List<String> out) {
    return new Op(name, type, in, out, OpArgs.none());
  }

  static Arguments bad(String label, GraphProblem.Kind kind, String opName, List<Variable> vars,
      List<Op> ops) {
    return Arguments.of(label, kind, opName, Graph.of(vars, ops, Map.of()));
  }

  static Stream<Arguments> broken() {
    DType f = DType.FLOAT32;
    return Stream.of(
        bad("unknown input", GraphProblem.Kind.UNKNOWN_INPUT, "mm",
            List.of(ph("a", f, 2, 3), arr("y", f, 2, 4)),
            List.of(op("mm", "matmul", List.of("a", "nope"), List.of("y")))),
        bad("cycle", GraphProblem.Kind.CYCLE, "first",
            List.of(arr("p", f, 2), arr("q", f, 2)),
            List.of(op("first", "relu", List.of("q"), List.of("p")),
                op("second", "relu", List.of("p"), List.of("q")))),
        bad("shape mismatch in inputs", GraphProblem.Kind.SHAPE_MISMATCH, "mm",
            List.of(ph("a", f, 2, 3), ph("b", f, 4, 5), arr("y", f, 2, 5)),
            List.of(op("mm", "matmul", List.of("a", "b"), List.of("y")))),
        bad("declared output shape wrong", GraphProblem.Kind.SHAPE_MISMATCH, "act",
            List.of(ph("a", f, 2, 3), arr("y", f, 3, 2)),
            List.of(op("act", "relu", List.of("a"), List.of("y")))),
        bad("dtype mismatch", GraphProblem.Kind.DTYPE_MISMATCH, "sum",
            List.of(ph("a", f, 2), ph("b", DType.FLOAT64, 2), arr("y", f, 2)),
            List.of(op("sum", "add", List.of("a", "b"), List.of("y")))),
        bad("declared output dtype wrong", GraphProblem.Kind.DTYPE_MISMATCH, "am",
            List.of(ph("a", f, 2, 3), arr("y", f, 2)),
            List.of(op("am", "argmax", List.of("a"), List.of("y")))),
        bad("missing argument", GraphProblem.Kind.MISSING_ARGUMENT, "rs",
            List.of(ph("a", f, 2, 3), arr("y", f, 6)),
            List.of(op("rs", "reshape", List.of("a"), List.of("y")))),
        bad("unknown op type", GraphProblem.Kind.UNKNOWN_OP_TYPE, "x1",
            List.of(ph("a", f, 2), arr("y", f, 2)),
            List.of(op("x1", "frobnicate", List.of("a"), List.of("y")))),
        bad("wrong input count", GraphProblem.Kind.WRONG_INPUT_COUNT, "mm",
            List.of(ph("a", f, 2, 2), arr("y", f, 2, 2)),
            List.of(op("mm", "matmul", List.of("a"), List.of("y")))),
        bad("two writers", GraphProblem.Kind.MULTIPLE_WRITERS, "w2",
            List.of(ph("a", f, 2), arr("y", f, 2)),
            List.of(op("w1", "relu", List.of("a"), List.of("y")),
                op("w2", "tanh", List.of("a"), List.of("y")))),
        bad("writes a placeholder", GraphProblem.Kind.BAD_VARIABLE, "w",
            List.of(ph("a", f, 2), ph("b", f, 2)),
            List.of(op("w", "relu", List.of("a"), List.of("b")))),
        bad("bad argument value", GraphProblem.Kind.BAD_ARGUMENT, "sm",
            List.of(ph("a", f, 2, 3), arr("y", f, 2, 3)),
            List.of(new Op("sm", "softmax", List.of("a"), List.of("y"),
                OpArgs.builder().putInt("axis", 5).build()))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("broken")
  void problems_brokenGraph_reportsKindAndOp(String label, GraphProblem.Kind kind, String opName,
      Graph g) {
    List<GraphProblem> problems = g.problems();
    assertThat(problems).as(label).anySatisfy(p -> {
      assertThat(p.kind()).isEqualTo(kind);
      assertThat(p.opName()).isEqualTo(opName);
    });
    assertThatThrownBy(g::validate).isInstanceOf(GraphValidationException.class)
        .hasMessageContaining("op '" + opName + "'");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("broken")
  void problems_brokenGraph_onlyTheExpectedKind(String label, GraphProblem.Kind kind, String opName,
      Graph g) {
    List<GraphProblem.Kind> kinds = new ArrayList<>();
    g.problems().forEach(p -> kinds.add(p.kind()));
    if (kind == GraphProblem.Kind.CYCLE) {
      assertThat(kinds).containsOnly(GraphProblem.Kind.CYCLE).hasSize(2);
    } else {
      assertThat(kinds).containsExactly(kind);
    }
  }

  @org.junit.jupiter.api.Test
  void problems_constantWithoutValue_isReported() {
    Graph g = Graph.of(List.of(new Variable("c", DType.FLOAT32, PartialShape.of(2),
        VariableKind.CONSTANT)), List.of(), Map.of());
    assertThat(g.problems()).singleElement().satisfies(p -> assertThat(p.message())
        .contains("constant 'c' has no value"));
    Graph ok = Graph.of(g.variables(), List.of(), Map.of("c", Tensor.ofFloats(Shape.of(2), 1, 2)));
    assertThat(ok.problems()).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void builder_badOp_throwsNamingOp() {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", DType.FLOAT32, -1, 3);
    String w = b.trainable("w", DType.FLOAT32, 4, 2);
    assertThatThrownBy(() -> b.opNamed("dense/matmul", "matmul", OpArgs.none(), x, w))
        .isInstanceOf(GraphValidationException.class)
        .hasMessageContaining("op 'dense/matmul'").hasMessageContaining("inner dimensions");
  }
}
