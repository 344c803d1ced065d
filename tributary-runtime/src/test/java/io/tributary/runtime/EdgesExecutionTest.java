package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static io.tributary.runtime.TestValues.f32v;
import static io.tributary.runtime.TestValues.i32;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.IntrinsicDef;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.computation.Value;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every tier intrinsic runs and gives the right value, on six clients in three edges whose
 * clients interleave (client c is in edge c mod 3).
 */
class EdgesExecutionTest {
  private static final Edges EDGES = Edges.of(3, 0, 1, 2, 0, 1, 2);
  private static ExecutionContext ctx;

  @BeforeAll
  static void start() {
    ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2).withEdges(EDGES));
  }

  @AfterAll
  static void stop() {
    ctx.close();
  }

  record Case(String name, List<String> uris, Supplier<Computation> computation, Object[] args,
      Object expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case row(String name, List<String> uris, Supplier<Computation> c,
      Object expected, Object... args) {
    return new Case(name, uris, c, args, expected);
  }

  private static List<Tensor> ints(int... v) {
    List<Tensor> out = new ArrayList<>();
    for (int x : v) {
      out.add(i32(x));
    }
    return out;
  }

  private static List<Tensor> floats(float... v) {
    List<Tensor> out = new ArrayList<>();
    for (float x : v) {
      out.add(f32(x));
    }
    return out;
  }

  static Stream<Case> cases() {
    return Stream.of(
        row("broadcast_to_edges", List.of("federated_broadcast_to_edges"),
            () -> Federated.computation(Types.parse("float32@SERVER"),
                Intrinsics::federatedBroadcastToEdges),
            f32(1.5f), f32(1.5f)),
        row("broadcast_from_edges: each client gets its edge's value",
            List.of("federated_broadcast_from_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                Intrinsics::federatedBroadcastFromEdges),
            ints(10, 20, 30, 10, 20, 30), ints(10, 20, 30)),
        row("broadcast server -> edges -> clients",
            List.of("federated_broadcast_to_edges", "federated_broadcast_from_edges"),
            () -> Federated.computation(Types.parse("int32@SERVER"),
                x -> Intrinsics.federatedBroadcastFromEdges(
                    Intrinsics.federatedBroadcastToEdges(x))),
            ints(7, 7, 7, 7, 7, 7), i32(7)),
        row("map_at_edges", List.of("federated_map_at_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                x -> Intrinsics.federatedMap(IntrinsicExecutionTest.twice(), x)),
            ints(20, 40, 60), ints(10, 20, 30)),
        row("zip_at_edges", List.of("federated_zip_at_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                Types.parse("float32@EDGES"),
                (a, b) -> Intrinsics.federatedZip(Federated.struct(a, b))),
            List.of(StructValue.of(i32(1), f32(5)), StructValue.of(i32(2), f32(5)),
                StructValue.of(i32(3), f32(5))),
            ints(1, 2, 3), f32(5)),
        row("sum_to_edges", List.of("federated_sum_to_edges"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                Intrinsics::federatedSumToEdges),
            ints(5, 7, 9), ints(1, 2, 3, 4, 5, 6)),
        row("mean_to_edges", List.of("federated_mean_to_edges"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                Intrinsics::federatedMeanToEdges),
            floats(2.5f, 3.5f, 4.5f), floats(1, 2, 3, 4, 5, 6)),
        row("weighted_mean_to_edges", List.of("federated_weighted_mean_to_edges"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                Types.parse("{float32}@CLIENTS"), Intrinsics::federatedWeightedMeanToEdges),
            floats(3.25f, 3.5f, 3f), floats(1, 2, 3, 4, 5, 6), floats(1, 1, 1, 3, 1, 0)),
        row("min_to_edges", List.of("federated_min_to_edges"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                Intrinsics::federatedMinToEdges),
            ints(-4, 2, 3), ints(1, 2, 3, -4, 5, 6)),
        row("max_to_edges", List.of("federated_max_to_edges"),
            () -> Federated.computation(Types.parse("{float32[2]}@CLIENTS"),
                Intrinsics::federatedMaxToEdges),
            List.of(f32v(4, 1), f32v(5, 2), f32v(6, 3)),
            List.of(f32v(1, 1), f32v(2, 2), f32v(3, 3), f32v(4, 0), f32v(5, 0), f32v(6, 0))),
        row("aggregate_to_edges", List.of("federated_aggregate_to_edges"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                x -> Intrinsics.federatedAggregateToEdges(x, Federated.constant(f32(0)),
                    IntrinsicExecutionTest.plusF(), IntrinsicExecutionTest.plusF(),
                    IntrinsicExecutionTest.twiceF())),
            floats(10, 14, 18), floats(1, 2, 3, 4, 5, 6)),
        row("secure_sum_to_edges", List.of("federated_secure_sum_to_edges"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                x -> Intrinsics.federatedSecureSumToEdges(x, Federated.constant(i32(10)))),
            ints(5, 7, 9), ints(1, 2, 3, 4, 5, 6)),
        row("secure_sum_bitwidth_to_edges", List.of("federated_secure_sum_bitwidth_to_edges"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                x -> Intrinsics.federatedSecureSumBitwidthToEdges(x,
                    Federated.constant(i32(3)))),
            ints(5, 7, 1), ints(1, 2, 3, 4, 5, 6)),
        row("sum_from_edges", List.of("federated_sum_from_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                Intrinsics::federatedSumFromEdges),
            i32(21), ints(5, 7, 9)),
        row("mean_from_edges: every edge counts once", List.of("federated_mean_from_edges"),
            () -> Federated.computation(Types.parse("{float32}@EDGES"),
                Intrinsics::federatedMeanFromEdges),
            f32(3), floats(1, 2, 6)),
        row("weighted_mean_from_edges", List.of("federated_weighted_mean_from_edges"),
            () -> Federated.computation(Types.parse("{float32}@EDGES"),
                Types.parse("{float32}@EDGES"), Intrinsics::federatedWeightedMeanFromEdges),
            f32(2.5f), floats(1, 3, 0), floats(1, 3, 0)),
        row("min_from_edges", List.of("federated_min_from_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                Intrinsics::federatedMinFromEdges),
            i32(-2), ints(5, -2, 9)),
        row("max_from_edges", List.of("federated_max_from_edges"),
            () -> Federated.computation(Types.parse("{int32}@EDGES"),
                Intrinsics::federatedMaxFromEdges),
            i32(9), ints(5, -2, 9)),
        row("aggregate_from_edges", List.of("federated_aggregate_from_edges"),
            () -> Federated.computation(Types.parse("{float32}@EDGES"),
                x -> Intrinsics.federatedAggregateFromEdges(x, Federated.constant(f32(0)),
                    IntrinsicExecutionTest.plusF(), IntrinsicExecutionTest.plusF(),
                    IntrinsicExecutionTest.twiceF())),
            f32(12), floats(1, 2, 3)),
        row("a round through the tiers: server -> edges -> clients -> edges -> server",
            List.of("federated_broadcast_to_edges", "federated_broadcast_from_edges",
                "federated_map", "federated_weighted_mean_to_edges",
                "federated_sum_to_edges", "federated_weighted_mean_from_edges"),
            EdgesExecutionTest::tieredRound,
            f32(4.5f), f32(1), floats(1, 2, 3, 4, 5, 6), floats(1, 1, 1, 1, 1, 1)));
  }

  /** Adds the server's value to each client's, then averages through the edges. */
  private static Computation tieredRound() {
    Computation add = Federated.computation(Types.parse("<float32,float32>"),
        p -> Intrinsics.genericPlus(p.get(0), p.get(1)));
    return Federated.computation(
        Types.parse("<float32@SERVER,{float32}@CLIENTS,{float32}@CLIENTS>"), arg -> {
          Value atClients = Intrinsics.federatedBroadcastFromEdges(
              Intrinsics.federatedBroadcastToEdges(arg.get(0)));
          Value updated = Intrinsics.federatedMap(add, Federated.struct(atClients, arg.get(1)));
          Value edgeMeans = Intrinsics.federatedWeightedMeanToEdges(updated, arg.get(2));
          Value edgeWeights = Intrinsics.federatedSumToEdges(arg.get(2));
          return Intrinsics.federatedWeightedMeanFromEdges(edgeMeans, edgeWeights);
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void invoke_eachTierIntrinsic_givesItsValue(Case c) {
    assertThat(ctx.invoke(c.computation().get(), c.args())).isEqualTo(c.expected());
  }

  @Test
  void aggregateToEdges_groupsOfSeveralClients_foldsEveryClientOfEachEdge() {
    Computation count = Federated.computation(Types.parse("{float32}@CLIENTS"),
        x -> Intrinsics.federatedAggregateToEdges(x, Federated.constant(f32(0)),
            IntrinsicExecutionTest.plusF(), IntrinsicExecutionTest.plusF(),
            Federated.local("id", "(float32 -> float32)", v -> v)));
    try (ExecutionContext many = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2)
        .withEdges(Edges.contiguous(1000, 1048)))) {
      assertThat(many.invoke(count, java.util.Collections.nCopies(2048, f32(1))))
          .isEqualTo(floats(1000, 1048));
    }
  }

  @Test
  void cases_coverEveryTierIntrinsic() {
    Set<String> covered = new HashSet<>();
    cases().forEach(c -> {
      String printed = c.computation().get().print();
      for (String uri : c.uris()) {
        assertThat(printed).as(c.name()).contains(uri);
      }
      covered.addAll(c.uris());
    });
    assertThat(IntrinsicCatalogue.tiers()).extracting(IntrinsicDef::uri)
        .allSatisfy(uri -> assertThat(covered).contains(uri));
  }
}
