package io.tributary.core.compiler;

import static io.tributary.core.compiler.Blocks.call;
import static io.tributary.core.compiler.Blocks.intrinsic;
import static io.tributary.core.compiler.Blocks.java;
import static io.tributary.core.compiler.Blocks.lambda;
import static io.tributary.core.compiler.Blocks.let;
import static io.tributary.core.compiler.Blocks.local;
import static io.tributary.core.compiler.Blocks.ref;
import static io.tributary.core.compiler.Blocks.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.testing.Golden;
import io.tributary.core.types.Placement;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlockPrinterTest {
  @Test
  void print_averageTemperature_isCompactForm() {
    BuildingBlock avg = lambda("readings", "{float32}@CLIENTS",
        call(intrinsic("federated_mean", "({float32}@CLIENTS -> float32@SERVER)"),
            ref("readings")));
    assertThat(BlockPrinter.print(avg)).isEqualTo("(readings -> federated_mean(readings))");
    assertThat(avg).hasToString("(readings -> federated_mean(readings))");
  }

  @Test
  void printAndFormat_everyNodeKind_matchGolden() {
    Map<String, BuildingBlock> cases = new LinkedHashMap<>();
    cases.put("reference", ref("x"));
    cases.put("selections", Selection.byIndex(Selection.byName(ref("x"), "weights"), 0));
    cases.put("struct", new Struct(List.of(
        new Struct.Element(java.util.Optional.of("a"), ref("x")),
        new Struct.Element(java.util.Optional.empty(), ref("y")))));
    cases.put("empty struct", Struct.of());
    cases.put("call without argument", Call.withoutArgument(java("make", "( -> int32)")));
    cases.put("lambda without parameter", Lambda.noParameter(ref("z")));
    cases.put("nested lambdas", lambda("x", "int32", lambda("y", "int32", Struct.of(ref("x"),
        ref("y")))));
    cases.put("intrinsic", intrinsic("federated_sum", "({int32}@CLIENTS -> int32@SERVER)"));
    cases.put("data", new Data("file:///tmp/train", t("{int32*}@CLIENTS")));
    cases.put("placement", new PlacementLiteral(Placement.CLIENTS));
    cases.put("scalar literals", Struct.of(
        new Literal(Tensor.scalar(1.5f)), new Literal(Tensor.scalar(2.25)),
        new Literal(Tensor.ofInts(Shape.scalar(), -7)),
        new Literal(Tensor.ofLongs(Shape.scalar(), Long.MIN_VALUE)),
        new Literal(Tensor.ofBooleans(Shape.scalar(), true)),
        new Literal(Tensor.ofStrings(Shape.scalar(), "say \"hi\""))));
    cases.put("array literals", Struct.of(
        new Literal(Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4)),
        new Literal(Tensor.ofInts(Shape.of(10), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)),
        new Literal(TensorBuilder.allocate(DType.UINT64, Shape.of(1)).setLong(0, -1L).build()),
        new Literal(TensorBuilder.allocate(DType.COMPLEX64, Shape.of(1))
            .setComplex(0, 1, -2).build())));
    cases.put("java function", java("local_train", "(<float32[3],int32*> -> float32[3])"));
    cases.put("nested blocks",
        lambda("s", "float32@SERVER",
            let(List.of(
                    local("a", call(intrinsic("federated_broadcast",
                        "(float32@SERVER -> float32@CLIENTS)"), ref("s"))),
                    local("b", let(List.of(local("c", ref("a"))), ref("c")))),
                Struct.of(ref("a"), ref("b")))));
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, BuildingBlock> e : cases.entrySet()) {
      out.append("== ").append(e.getKey()).append('\n')
          .append(BlockPrinter.print(e.getValue())).append('\n')
          .append(BlockPrinter.format(e.getValue())).append("\n\n");
    }
    Golden.assertMatches("compiler/printer.txt", out.toString());
  }
}
