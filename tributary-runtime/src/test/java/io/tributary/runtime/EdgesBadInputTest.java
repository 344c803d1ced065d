package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static io.tributary.runtime.TestValues.f64;
import static io.tributary.runtime.TestValues.i32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Populations whose edges do not fit the computation are refused, naming the client or edge. */
class EdgesBadInputTest {
  private static final Computation SUM_TO_EDGES = Federated.computation(
      Types.parse("{int32}@CLIENTS"), Intrinsics::federatedSumToEdges);
  private static final Computation MEAN_TO_EDGES = Federated.computation(
      Types.parse("{float32}@CLIENTS"), Intrinsics::federatedMeanToEdges);
  private static final Computation SUM_FROM_EDGES = Federated.computation(
      Types.parse("{float64}@EDGES"), Intrinsics::federatedSumFromEdges);

  private static Object run(RuntimeOptions options, Computation c, Object... args) {
    try (ExecutionContext ctx = ExecutionContext.create(options.withThreads(2))) {
      return ctx.invoke(c, args);
    }
  }

  private static List<Tensor> ints(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(TestValues::i32).toList();
  }

  @Test
  void invoke_noEdgesGiven_throwsCardinalityNamingTheOption() {
    assertThatThrownBy(() -> run(RuntimeOptions.defaults(), SUM_TO_EDGES, ints(4)))
        .isInstanceOf(CardinalityException.class)
        .hasMessageContaining("federated_sum_to_edges needs each client's edge")
        .hasMessageContaining("RuntimeOptions.withEdges");
  }

  @Test
  void invoke_clientWithoutEdge_throwsCardinalityNamingTheClient() {
    assertThatThrownBy(() -> run(RuntimeOptions.defaults().withEdges(Edges.even(4, 2)),
        SUM_TO_EDGES, ints(6)))
        .isInstanceOf(CardinalityException.class)
        .hasMessageContaining("client 4 has no edge");
  }

  @Test
  void invoke_edgesForMoreClients_throwsCardinality() {
    assertThatThrownBy(() -> run(RuntimeOptions.defaults().withEdges(Edges.even(8, 2)),
        SUM_TO_EDGES, ints(6)))
        .isInstanceOf(CardinalityException.class)
        .hasMessageContaining("the edges cover 8 clients but the population has 6");
  }

  @Test
  void invoke_meanAtAnEdgeWithoutClients_throwsNamingTheEdge() {
    RuntimeOptions options = RuntimeOptions.defaults().withEdges(Edges.of(3, 0, 0, 1, 1));
    assertThatThrownBy(() -> run(options, MEAN_TO_EDGES,
        List.of(f32(1), f32(2), f32(3), f32(4))))
        .isInstanceOf(LocalComputationException.class)
        .hasMessageContaining("federated_mean_to_edges")
        .hasMessageContaining("edge 2 has no clients");
    assertThat(run(options, SUM_TO_EDGES, ints(4))).isEqualTo(List.of(i32(1), i32(5), i32(0)));
  }

  @Test
  void invoke_edgeArgumentOfWrongSizeOrForm_isRefused() {
    RuntimeOptions options = RuntimeOptions.defaults().withEdges(Edges.even(6, 3));
    assertThatThrownBy(() -> run(options, SUM_FROM_EDGES, List.of(f64(1), f64(2))))
        .isInstanceOf(CardinalityException.class)
        .hasMessageContaining("has 2 edge values but there are 3 edges");
    assertThatThrownBy(() -> run(options, SUM_FROM_EDGES, f64(1)))
        .isInstanceOf(ValueMismatchException.class)
        .hasMessageContaining("one value per edge");
    assertThatThrownBy(() -> run(options, SUM_FROM_EDGES, List.of(f64(1), f32(2), f64(3))))
        .isInstanceOf(ValueMismatchException.class)
        .hasMessageContaining("edge 1");
  }

  @Test
  void invoke_nonFiniteEdgeValue_isRefusedNamingTheEdge() {
    RuntimeOptions options = RuntimeOptions.defaults().withEdges(Edges.even(6, 3));
    assertThatThrownBy(() -> run(options, SUM_FROM_EDGES,
        List.of(f64(1), f64(Double.NaN), f64(3))))
        .isInstanceOf(LocalComputationException.class)
        .hasMessageContaining("federated_sum_from_edges: the value of edge 1 is refused")
        .hasMessageContaining("NaN");
  }

  @Test
  void invoke_tolerantFailures_excludeAClientFromItsEdgeOnly() {
    Computation flaky = Federated.local("flaky", "(float32 -> float32)", x -> {
      if (((Tensor) x).getFloat(0) == 3f) {
        throw new IllegalStateException("device ran out of battery");
      }
      return x;
    });
    Computation c = Federated.computation(Types.parse("{float32}@CLIENTS"),
        x -> Intrinsics.federatedMeanToEdges(Intrinsics.federatedMap(flaky, x)));
    RuntimeOptions options = RuntimeOptions.defaults().withEdges(Edges.of(2, 0, 1, 0, 1))
        .withMinSuccessFraction(0.5);
    assertThat(run(options, c, List.of(f32(1), f32(2), f32(3), f32(4))))
        .isEqualTo(List.of(f32(1), f32(3)));
  }

  @Test
  void edges_badAssignments_areRefusedNamingTheClient() {
    assertThatThrownBy(() -> Edges.of(2, 0, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("client 1 has no edge (-1)");
    assertThatThrownBy(() -> Edges.of(2, 0, 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client 2 has edge 2, but there are 2 edges (0 to 1)");
    assertThatThrownBy(() -> Edges.of(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to");
    assertThatThrownBy(() -> Edges.contiguous(2, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("edge 1");
    assertThat(Edges.even(7, 3)).isEqualTo(Edges.contiguous(3, 2, 2));
  }
}
