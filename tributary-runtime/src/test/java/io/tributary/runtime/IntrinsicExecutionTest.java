package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static io.tributary.runtime.TestValues.f32v;
import static io.tributary.runtime.TestValues.i32;
import static io.tributary.runtime.TestValues.i32v;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.IntrinsicDef;
import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Placement;
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

/** Every intrinsic of the catalogue runs and gives the right value. */
class IntrinsicExecutionTest {
  private static ExecutionContext ctx;

  @BeforeAll
  static void start() {
    ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2).withPopulation(3));
  }

  @AfterAll
  static void stop() {
    ctx.close();
  }

  /** One row: the intrinsics it exercises, the computation, its arguments, the result. */
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

  static Computation twice() {
    return Federated.local("twice", "(int32 -> int32)", x -> {
      int v = ((Tensor) x).getInt(0);
      return i32(2 * v);
    });
  }

  static Computation plusF() {
    return Federated.computation(Types.parse("<float32,float32>"),
        p -> Intrinsics.genericPlus(p.get(0), p.get(1)));
  }

  static Computation pick() {
    return Federated.local("pick", "(<float32[3],int32> -> float32)", x -> {
      StructValue s = (StructValue) x;
      return f32(((Tensor) s.get(0)).getFloat(((Tensor) s.get(1)).getInt(0)));
    });
  }

  static Stream<Case> cases() {
    return Stream.of(
        row("broadcast", List.of("federated_broadcast"),
            () -> Federated.computation(Types.parse("float32@SERVER"),
                Intrinsics::federatedBroadcast),
            f32(1.5f), f32(1.5f)),
        row("map", List.of("federated_map"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                x -> Intrinsics.federatedMap(twice(), x)),
            List.of(i32(2), i32(4), i32(6)), List.of(i32(1), i32(2), i32(3))),
        row("map_all_equal", List.of("federated_map_all_equal"),
            () -> Federated.computation(Types.parse("int32@CLIENTS"),
                x -> Intrinsics.federatedMap(twice(), x)),
            i32(14), i32(7)),
        row("apply", List.of("federated_apply"),
            () -> Federated.computation(Types.parse("int32@SERVER"),
                x -> Intrinsics.federatedApply(twice(), x)),
            i32(10), i32(5)),
        row("sum int32", List.of("federated_sum"),
            () -> Federated.computation(Types.parse("{int32[2]}@CLIENTS"),
                Intrinsics::federatedSum),
            i32v(6, 60), List.of(i32v(1, 10), i32v(2, 20), i32v(3, 30))),
        row("mean", List.of("federated_mean"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                Intrinsics::federatedMean),
            f32(2.0f), List.of(f32(1), f32(2), f32(3))),
        row("weighted_mean", List.of("federated_weighted_mean"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                Types.parse("{float32}@CLIENTS"), Intrinsics::federatedWeightedMean),
            f32(2.5f), List.of(f32(1), f32(3), f32(0)), List.of(f32(1), f32(3), f32(0))),
        row("min", List.of("federated_min"),
            () -> Federated.computation(Types.parse("{int32[2]}@CLIENTS"),
                Intrinsics::federatedMin),
            i32v(-4, 1), List.of(i32v(3, 1), i32v(-4, 9), i32v(0, 2))),
        row("max", List.of("federated_max"),
            () -> Federated.computation(Types.parse("{float32[2]}@CLIENTS"),
                Intrinsics::federatedMax),
            f32v(3, 9), List.of(f32v(3, 1), f32v(-4, 9), f32v(0, 2))),
        row("aggregate", List.of("federated_aggregate"),
            () -> Federated.computation(Types.parse("{float32}@CLIENTS"),
                x -> Intrinsics.federatedAggregate(x, Federated.constant(f32(0)), plusF(),
                    plusF(), twiceF())),
            f32(12), List.of(f32(1), f32(2), f32(3))),
        row("secure_sum", List.of("federated_secure_sum"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                x -> Intrinsics.federatedSecureSum(x, Federated.constant(i32(10)))),
            i32(6), List.of(i32(1), i32(2), i32(3))),
        row("secure_sum_bitwidth", List.of("federated_secure_sum_bitwidth"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                x -> Intrinsics.federatedSecureSumBitwidth(x, Federated.constant(i32(3)))),
            i32(3), List.of(i32(3), i32(7), i32(1))),
        row("zip_at_clients", List.of("federated_zip_at_clients"),
            () -> Federated.computation(Types.parse("{int32}@CLIENTS"),
                Types.parse("{float32}@CLIENTS"),
                (a, b) -> Intrinsics.federatedZip(Federated.struct(a, b))),
            List.of(StructValue.of(i32(1), f32(1)), StructValue.of(i32(2), f32(2)),
                StructValue.of(i32(3), f32(3))),
            List.of(i32(1), i32(2), i32(3)), List.of(f32(1), f32(2), f32(3))),
        row("zip_at_server", List.of("federated_zip_at_server"),
            () -> Federated.computation(Types.parse("int32@SERVER"), Types.parse("float32@SERVER"),
                (a, b) -> Intrinsics.federatedZip(Federated.struct(a, b))),
            StructValue.of(i32(1), f32(2)), i32(1), f32(2)),
        row("value_at_clients, summed over the population", List.of(
                "federated_value_at_clients", "federated_sum"),
            () -> Federated.computation(Types.parse("int32"),
                x -> Intrinsics.federatedSum(Intrinsics.federatedValue(x, Placement.CLIENTS))),
            i32(15), i32(5)),
        row("value_at_server", List.of("federated_value_at_server"),
            () -> Federated.computation(Types.parse("int32"),
                x -> Intrinsics.federatedValue(x, Placement.SERVER)),
            i32(5), i32(5)),
        row("eval_at_clients", List.of("federated_eval_at_clients"),
            () -> Federated.computation(
                () -> Intrinsics.federatedEval(seven(), Placement.CLIENTS)),
            List.of(i32(7), i32(7), i32(7))),
        row("eval_at_server", List.of("federated_eval_at_server"),
            () -> Federated.computation(
                () -> Intrinsics.federatedEval(seven(), Placement.SERVER)),
            i32(7)),
        row("select", List.of("federated_select"),
            () -> Federated.computation(Types.parse("{int32[?]}@CLIENTS"),
                Types.parse("float32[3]@SERVER"),
                (keys, state) -> Intrinsics.federatedSelect(keys,
                    Intrinsics.federatedValue(Federated.constant(i32(3)), Placement.SERVER),
                    state, pick())),
            List.of(List.of(f32(10), f32(30)), List.of(f32(20)), List.of()),
            List.of(i32v(0, 2), i32v(1), i32v()), f32v(10, 20, 30)),
        row("secure_select (in the clear)", List.of("federated_secure_select"),
            () -> Federated.computation(Types.parse("{int32[?]}@CLIENTS"),
                Types.parse("float32[3]@SERVER"),
                (keys, state) -> Intrinsics.federatedSecureSelect(keys,
                    Intrinsics.federatedValue(Federated.constant(i32(3)), Placement.SERVER),
                    state, pick())),
            List.of(List.of(f32(30)), List.of(f32(10), f32(20)), List.of(f32(10))),
            List.of(i32v(2), i32v(0, 1), i32v(0)), f32v(10, 20, 30)),
        row("sequence_map and sequence_sum", List.of("sequence_map", "sequence_sum"),
            () -> Federated.computation(Types.parse("int32*"),
                s -> Intrinsics.sequenceSum(Intrinsics.sequenceMap(twice(), s))),
            i32(12), List.of(i32(1), i32(2), i32(3))),
        row("sequence_reduce", List.of("sequence_reduce"),
            () -> Federated.computation(Types.parse("float32*"),
                s -> Intrinsics.sequenceReduce(s, Federated.constant(f32(0.5f)), plusF())),
            f32(6.5f), List.of(f32(1), f32(2), f32(3))),
        row("generic_plus, generic_multiply", List.of("generic_plus", "generic_multiply"),
            () -> Federated.computation(Types.parse("<int32[2],int32[2]>"),
                p -> Intrinsics.genericMultiply(Intrinsics.genericPlus(p.get(0), p.get(1)),
                    p.get(1))),
            i32v(12, -3), StructValue.of(i32v(1, 4), i32v(3, -1))),
        row("generic_divide of floats", List.of("generic_divide"),
            () -> Federated.computation(Types.parse("<float32[3],float32[3]>"),
                p -> Intrinsics.genericDivide(p.get(0), p.get(1))),
            f32v(0.5f, -4, Float.POSITIVE_INFINITY), StructValue.of(f32v(1, -2, 1), f32v(2, 0.5f, 0))),
        row("generic_divide of integers, as doubles", List.of("generic_divide"),
            () -> Federated.computation(Types.parse("<int32[3],int32[3]>"),
                p -> Intrinsics.genericDivide(p.get(0), p.get(1))),
            Tensor.ofDoubles(io.tributary.tensor.Shape.of(3), 3.5, -1.0 / 3, Double.NEGATIVE_INFINITY),
            StructValue.of(i32v(7, 1, -5), i32v(2, -3, 0))),
        row("generic_zero", List.of("generic_zero"),
            () -> Federated.computation(Types.parse("<a=float32[2],b=int32>"),
                p -> Intrinsics.genericPlus(p, Intrinsics.genericZero(
                    Types.parse("<a=float32[2],b=int32>")))),
            StructValue.named("a", f32v(1, 2), "b", i32(3)),
            StructValue.named("a", f32v(1, 2), "b", i32(3))));
  }

  static Computation seven() {
    return Federated.local("seven", "( -> int32)", x -> i32(7));
  }

  static Computation twiceF() {
    return Federated.local("twice_f", "(float32 -> float32)",
        x -> f32(2 * ((Tensor) x).getFloat(0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void invoke_eachIntrinsic_givesItsValue(Case c) {
    Object result = ctx.invoke(c.computation().get(), c.args());
    assertThat(result).isEqualTo(c.expected());
  }

  @Test
  void aggregate_groupsOfSeveralClients_foldsEveryClient() {
    // 2048 clients make groups of 8: each client's accumulate must see the one before it.
    Computation count = Federated.computation(Types.parse("{float32}@CLIENTS"),
        x -> Intrinsics.federatedAggregate(x, Federated.constant(f32(0)), plusF(), plusF(),
            Federated.local("id", "(float32 -> float32)", v -> v)));
    try (ExecutionContext many = ExecutionContext.create(RuntimeOptions.defaults()
        .withThreads(2))) {
      assertThat(many.invoke(count, java.util.Collections.nCopies(2048, f32(1))))
          .isEqualTo(f32(2048));
    }
  }

  @Test
  void cases_coverEveryIntrinsicOfTheCatalogue() {
    Set<String> covered = new HashSet<>();
    cases().forEach(c -> covered.addAll(c.uris()));
    List<String> missing = new ArrayList<>();
    for (IntrinsicDef d : IntrinsicCatalogue.federatedLanguage()) {
      if (!covered.contains(d.uri())) {
        missing.add(d.uri());
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void cases_printTheIntrinsicsTheyClaim() {
    // Guards the coverage test: each row's computation really contains its intrinsics.
    cases().forEach(c -> {
      String printed = c.computation().get().print();
      for (String uri : c.uris()) {
        assertThat(printed).as(c.name()).contains(uri);
      }
    });
  }
}
