package io.tributary.core.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Types;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class GraphComputationTest {
  private static final FunctionType TYPE =
      (FunctionType) Types.parse("(<m=float32[2],d=<x=float32[?,2],y=int64[?]>*> -> float32)");

  private static GraphComputation graph(String name) {
    return GraphComputation.of(name, TYPE, "evaluate", new byte[] {1, 2, 3},
        Map.of("learning_rate", "0.1", "epochs", "2"));
  }

  @Test
  void constructor_copiesGraphAndSortsSettings() {
    byte[] bytes = {1, 2, 3};
    GraphComputation g = new GraphComputation("g", TYPE, "evaluate", bytes,
        new TreeMap<>(Map.of("b", "2", "a", "1")));
    bytes[0] = 9;
    assertThat(g.graph()).containsExactly(1, 2, 3);
    g.graph()[1] = 9;
    assertThat(g.graph()).containsExactly(1, 2, 3);
    assertThat(g.graphSize()).isEqualTo(3);
    assertThat(g.settings().keySet()).containsExactly("a", "b");
    assertThat(g.setting("a")).isEqualTo("1");
  }

  @Test
  void equals_sameContentInOtherArrays_isEqual() {
    assertThat(graph("g")).isEqualTo(graph("g")).hasSameHashCodeAs(graph("g"));
    assertThat(graph("g")).isNotEqualTo(graph("h"));
    assertThat(graph("g")).isNotEqualTo(GraphComputation.of("g", TYPE, "evaluate",
        new byte[] {1, 2, 4}, Map.of("learning_rate", "0.1", "epochs", "2")));
  }

  @Test
  void setting_missing_throwsNamingTheKnownOnes() {
    assertThatThrownBy(() -> graph("g").setting("mu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no setting 'mu'").hasMessageContaining("[epochs, learning_rate]");
  }

  @Test
  void constructor_badInput_throwsNamingTheProblem() {
    assertThatThrownBy(() -> GraphComputation.of("g", TYPE, "evaluate", new byte[0], Map.of()))
        .hasMessageContaining("empty graph");
    assertThatThrownBy(() -> GraphComputation.of("g", TYPE, "1st", new byte[1], Map.of()))
        .hasMessageContaining("procedure '1st' is not a name");
    assertThatThrownBy(() -> GraphComputation.of("g", TYPE, "p", new byte[1], Map.of("a-b", "")))
        .hasMessageContaining("setting name of graph computation g 'a-b' is not a name");
    assertThatThrownBy(() -> GraphComputation.of("g", TYPE, "p", new byte[1],
        Map.of("a", "x".repeat(GraphComputation.MAX_SETTING_LENGTH + 1))))
        .hasMessageContaining("setting a of graph computation g is 4097 characters long");
    assertThatThrownBy(() -> GraphComputation.of("g",
        (FunctionType) Types.parse("(float32@SERVER -> float32@SERVER)"), "p", new byte[1],
        Map.of())).hasMessageContaining("federated or placement type");
  }

  @Test
  void print_showsGraphPrefix() {
    assertThat(graph("train").toString()).isEqualTo("graph:train");
    assertThat(graph("train").describe()).contains("procedure=evaluate")
        .contains("settings={epochs=2, learning_rate=0.1}").contains("graph=3 bytes");
  }

  @Test
  void fromBytes_federatedComputationCallingAGraph_roundTripsWithoutResolver() throws Exception {
    Computation local = Computation.of(graph("eval"));
    Computation c = Federated.computation(
        Types.parse("{<m=float32[2],d=<x=float32[?,2],y=int64[?]>*>}@CLIENTS"),
        x -> Intrinsics.federatedMean(Intrinsics.federatedMap(local, x)));
    assertThat(c.type().toString()).isEqualTo(
        "({<m=float32[2],d=<x=float32[?,2],y=int64[?]>*>}@CLIENTS -> float32@SERVER)");
    byte[] bytes = ComputationProtos.toBytes(c.block());
    BuildingBlock back = ComputationProtos.fromBytes(bytes, LocalResolver.none());
    assertThat(back).isEqualTo(c.block());
    assertThat(LocalComputations.all(back)).containsExactly(graph("eval"));
  }

  @Test
  void replaceAll_bindsEveryGraphToAJavaFunction_keepingTheRest() {
    Computation local = Computation.of(graph("eval"));
    Computation c = Federated.computation(
        Types.parse("{<m=float32[2],d=<x=float32[?,2],y=int64[?]>*>}@CLIENTS"),
        x -> Intrinsics.federatedMean(Intrinsics.federatedMap(local, x)));
    BuildingBlock bound = LocalComputations.replaceAll(c.block(),
        lc -> new JavaFunction(lc.name(), lc.type(), arg -> arg));
    assertThat(bound.toString()).isEqualTo(c.block().toString().replace("graph:", "java:"));
    assertThat(TypeChecker.check(bound).type()).contains(c.type());
    assertThat(LocalComputations.all(bound)).hasSize(1)
        .allSatisfy(lc -> assertThat(lc).isInstanceOf(JavaFunction.class));
  }

  @Test
  void replaceAll_typeChanged_throws() {
    assertThatThrownBy(() -> LocalComputations.replaceAll(graph("g"),
        lc -> new JavaFunction("g", (FunctionType) Types.parse("(float32 -> float32)"), a -> a)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the replacement for graph:g has type (float32 -> float32)");
    assertThatThrownBy(() -> LocalComputations.replaceAll(graph("g"), lc -> null))
        .hasMessageContaining("is null");
  }

  @Test
  void all_listsInPrintingOrder() {
    BuildingBlock b = Struct.of(graph("a"), Struct.of(graph("b")), graph("a"));
    assertThat(LocalComputations.all(b)).extracting(LocalComputation::name)
        .isEqualTo(List.of("a", "b", "a"));
  }
}
