package io.tributary.core.compiler;

import static io.tributary.core.compiler.Blocks.call;
import static io.tributary.core.compiler.Blocks.intrinsic;
import static io.tributary.core.compiler.Blocks.java;
import static io.tributary.core.compiler.Blocks.lambda;
import static io.tributary.core.compiler.Blocks.let;
import static io.tributary.core.compiler.Blocks.local;
import static io.tributary.core.compiler.Blocks.ref;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.testing.Golden;
import io.tributary.core.types.Placement;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypeCheckerTest {
  /** Ill-typed computations; each golden entry lists every diagnostic. */
  private static Map<String, BuildingBlock> illTyped() {
    Map<String, BuildingBlock> cases = new LinkedHashMap<>();
    cases.put("mean of integers",
        lambda("readings", "{int32}@CLIENTS",
            call(intrinsic("federated_mean", "({int32}@CLIENTS -> int32@SERVER)"),
                ref("readings"))));
    cases.put("argument at the wrong placement",
        lambda("readings", "float32@SERVER",
            call(intrinsic("federated_mean", "({float32}@CLIENTS -> float32@SERVER)"),
                ref("readings"))));
    cases.put("several errors at once",
        lambda("x", "<a=float32@SERVER,b={int32}@CLIENTS>",
            let(
                List.of(
                    local("c", call(intrinsic("federated_broadcast",
                        "(float32@SERVER -> float32@CLIENTS)"), Selection.byName(ref("x"), "b"))),
                    local("d", Selection.byName(ref("x"), "missing")),
                    local("e", Selection.byIndex(ref("x"), 5)),
                    local("f", call(ref("c"), ref("x"))),
                    local("g", ref("nowhere"))),
                Struct.of(ref("c"), ref("d"),
                    call(intrinsic("federated_sunm", "({int32}@CLIENTS -> int32@SERVER)"),
                        Selection.byName(ref("x"), "b"))))));
    cases.put("local function on a federated value",
        lambda("x", "{float32}@CLIENTS",
            call(java("square", "(float32 -> float32)"), ref("x"))));
    cases.put("call without argument",
        Call.withoutArgument(java("square", "(float32 -> float32)")));
    cases.put("duplicate names",
        let(List.of(local("a", new Literal(Tensor.ofInts(Shape.scalar(), 1))),
                local("a", new PlacementLiteral(Placement.CLIENTS))),
            new Struct(List.of(
                new Struct.Element(java.util.Optional.of("n"), ref("a")),
                new Struct.Element(java.util.Optional.of("n"), ref("a"))))));
    cases.put("client values where edge values are required",
        lambda("x", "{float32}@CLIENTS",
            call(intrinsic("federated_sum_from_edges", "({float32}@EDGES -> float32@SERVER)"),
                ref("x"))));
    cases.put("edge values where client values are required",
        lambda("x", "{float32}@EDGES",
            Struct.of(
                call(intrinsic("federated_mean", "({float32}@CLIENTS -> float32@SERVER)"),
                    ref("x")),
                call(intrinsic("federated_sum_to_edges", "({float32}@CLIENTS -> {float32}@EDGES)"),
                    ref("x")))));
    cases.put("server value broadcast from edges, edge value broadcast to edges",
        lambda("x", "<s=float32@SERVER,e={float32}@EDGES>",
            Struct.of(
                call(intrinsic("federated_broadcast_from_edges",
                    "({float32}@EDGES -> {float32}@CLIENTS)"), Selection.byName(ref("x"), "s")),
                call(intrinsic("federated_broadcast_to_edges",
                    "(float32@SERVER -> float32@EDGES)"), Selection.byName(ref("x"), "e")))));
    cases.put("edge aggregate declared at the server",
        intrinsic("federated_sum_to_edges", "({int32}@CLIENTS -> int32@SERVER)"));
    cases.put("intrinsic type that does not fit its signature",
        intrinsic("federated_broadcast", "(float32@SERVER -> int32@CLIENTS)"));
    return cases;
  }

  @Test
  void check_illTypedComputations_reportEveryProblemWithPathAndTypes() {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, BuildingBlock> e : illTyped().entrySet()) {
      CheckResult r = TypeChecker.check(e.getValue());
      assertThat(r.ok()).as(e.getKey()).isFalse();
      out.append("== ").append(e.getKey()).append('\n')
          .append(BlockPrinter.format(e.getValue())).append('\n')
          .append(r.report()).append('\n');
    }
    Golden.assertMatches("compiler/checker-diagnostics.txt", out.toString());
  }

  @Test
  void check_structElementNameNotAnIdentifier_reportsDiagnostic() {
    BuildingBlock b = new Struct(List.of(new Struct.Element(java.util.Optional.of("<lambda>"),
        new Literal(Tensor.ofInts(Shape.scalar(), 1)))));
    CheckResult r = TypeChecker.check(b);
    assertThat(r.ok()).isFalse();
    assertThat(r.diagnostics()).singleElement().satisfies(d -> {
      assertThat(d.path()).isEqualTo("$[0]");
      assertThat(d.toString()).contains("'<lambda>' is not a name");
    });
  }

  @Test
  void check_severalErrors_reportsAllNotOnlyFirst() {
    CheckResult r = TypeChecker.check(illTyped().get("several errors at once"));
    assertThat(r.diagnostics()).hasSize(6);
    assertThat(r.diagnostics()).extracting(Diagnostic::path).contains(
        "$.result.locals[c].argument", "$.result.locals[d]", "$.result.locals[e]",
        "$.result.locals[f]", "$.result.locals[g]", "$.result.result[2].function");
    Diagnostic broadcast = r.diagnostics().get(0);
    assertThat(broadcast.expected()).contains("float32@SERVER");
    assertThat(broadcast.actual()).contains("{int32}@CLIENTS");
  }

  @Test
  void check_wellTypedAverage_infersFunctionType() {
    BuildingBlock avg = lambda("readings", "{float32}@CLIENTS",
        call(intrinsic("federated_mean", "({float32}@CLIENTS -> float32@SERVER)"),
            ref("readings")));
    CheckResult r = TypeChecker.check(avg);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.type().orElseThrow().compact()).isEqualTo("({float32}@CLIENTS -> float32@SERVER)");
  }

  @Test
  void check_blockScoping_isLetStarAndShadows() {
    BuildingBlock b = lambda("x", "int32",
        let(List.of(local("y", ref("x")), local("x", new Literal(Tensor.scalar(1.0f))),
                local("z", Struct.of(ref("y"), ref("x")))),
            ref("z")));
    CheckResult r = TypeChecker.check(b);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.type().orElseThrow().compact()).isEqualTo("(int32 -> <int32,float32>)");
    BuildingBlock forward = let(List.of(local("a", ref("b")), local("b", ref("a"))), ref("a"));
    assertThat(TypeChecker.check(forward).diagnostics()).extracting(Diagnostic::path)
        .containsExactly("$.locals[a]");
  }

  @Test
  void check_listener_seesEveryNodeInPostOrder() {
    BuildingBlock b = lambda("x", "<int32,bool>", Selection.byIndex(ref("x"), 1));
    List<String> seen = new ArrayList<>();
    TypeChecker.check(b, n -> seen.add(n.path() + " " + n.type().map(Object::toString)
        .orElse("?")));
    assertThat(seen).containsExactly(
        "$.result.source <int32,bool>", "$.result bool", "$ (<int32,bool> -> bool)");
  }
}
