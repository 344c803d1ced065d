package io.tributary.runtime;

import static io.tributary.runtime.TestValues.f32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Client failures: typed errors naming client and intrinsic, or tolerated and reported. */
class FailureTest {
  /** Doubles a value; throws for the clients in {@code bad}, and sleeps for those in {@code slow}. */
  private static Computation flaky(Set<Integer> bad, Set<Integer> slow) {
    return Federated.local("flaky", "(<float32,int32> -> float32)", arg -> {
      StructValue a = (StructValue) arg;
      int id = ((Tensor) a.get(1)).getInt(0);
      if (bad.contains(id)) {
        throw new IllegalStateException("device " + id + " ran out of battery");
      }
      if (slow.contains(id)) {
        try {
          Thread.sleep(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return f32(2 * ((Tensor) a.get(0)).getFloat(0));
    });
  }

  private static Computation meanOf(Computation fn) {
    return Federated.computation(Types.parse("{float32}@CLIENTS"), Types.parse("{int32}@CLIENTS"),
        (x, id) -> Intrinsics.federatedMean(Intrinsics.federatedMap(fn, Federated.struct(x, id))));
  }

  private static List<Object> values(int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(f32(i));
    }
    return out;
  }

  private static List<Object> ids(int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(TestValues.i32(i));
    }
    return out;
  }

  @Test
  void invoke_clientThrows_failsNamingClientAndIntrinsic() {
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      assertThatThrownBy(() -> ctx.invoke(meanOf(flaky(Set.of(3), Set.of())), values(10), ids(10)))
          .isInstanceOfSatisfying(ClientFailureException.class, e -> {
            assertThat(e.client()).isEqualTo(3);
            assertThat(e.intrinsic()).isEqualTo("federated_map");
            assertThat(e.failure().operation()).isEqualTo("java:flaky");
            assertThat(e.failure().kind()).isEqualTo(ClientFailure.Kind.THREW);
          })
          .hasMessageContaining("client 3 failed in federated_map (java:flaky)")
          .hasMessageContaining("ran out of battery");
    }
  }

  @Test
  void invoke_clientExceedsTimeout_failsNamingClientAndIntrinsic() {
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2)
        .withClientTimeout(Duration.ofMillis(200));
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> ctx.invoke(meanOf(flaky(Set.of(), Set.of(5))), values(8), ids(8)))
          .isInstanceOfSatisfying(ClientFailureException.class, e -> {
            assertThat(e.client()).isEqualTo(5);
            assertThat(e.intrinsic()).isEqualTo("federated_map");
            assertThat(e.failure().kind()).isEqualTo(ClientFailure.Kind.TIMED_OUT);
          })
          .hasMessageContaining("timed out");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void invoke_toleratedFailures_excludesAndReportsThem() {
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2)
        .withClientTimeout(Duration.ofMillis(300)).withMinSuccessFraction(0.5);
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Outcome out = ctx.invokeWithReport(meanOf(flaky(Set.of(1, 2), Set.of(7))), values(10),
          ids(10));
      // Mean of 2*i over the 7 clients left: 0,3,4,5,6,8,9 -> 2*35/7 = 10.
      assertThat(out.value()).isEqualTo(f32(10));
      assertThat(out.report().failedClients()).containsExactly(1, 2, 7);
      assertThat(out.report().failures()).extracting(ClientFailure::kind).containsExactly(
          ClientFailure.Kind.THREW, ClientFailure.Kind.THREW, ClientFailure.Kind.TIMED_OUT);
      assertThat(out.report().failures()).allSatisfy(
          f -> assertThat(f.intrinsic()).isEqualTo("federated_map"));
    }
  }

  @Test
  void invoke_fewerSuccessesThanRequired_failsListingTheFailures() {
    RuntimeOptions options = RuntimeOptions.defaults().withThreads(2).withMinSuccessFraction(0.8);
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      assertThatThrownBy(() -> ctx.invoke(meanOf(flaky(Set.of(0, 4, 6), Set.of())), values(10),
          ids(10)))
          .isInstanceOfSatisfying(TooManyClientFailuresException.class, e -> {
            assertThat(e.failures()).extracting(ClientFailure::client).containsExactly(0, 4, 6);
            assertThat(e.clients()).isEqualTo(10);
          })
          .hasMessageContaining("3 of 10 clients failed");
    }
  }

  @Test
  void invoke_clientReturnsValueOfWrongShape_failsAsBadValue() {
    Computation wrong = Federated.local("wrong", "(<float32,int32> -> float32)",
        arg -> ((Tensor) ((StructValue) arg).get(1)).getInt(0) == 2
            ? TestValues.f32v(1, 2) : f32(1));
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(1))) {
      assertThatThrownBy(() -> ctx.invoke(meanOf(wrong), values(4), ids(4)))
          .isInstanceOfSatisfying(ClientFailureException.class, e -> {
            assertThat(e.client()).isEqualTo(2);
            assertThat(e.failure().kind()).isEqualTo(ClientFailure.Kind.BAD_VALUE);
          })
          .hasMessageContaining("float32[2]");
    }
  }

  @Test
  void invoke_generatorThrows_failsNamingTheConsumingAggregation() {
    Computation mean = Federated.computation(Types.parse("{float32}@CLIENTS"),
        Intrinsics::federatedMean);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(2))) {
      ClientValues gen = ClientValues.generate(5, i -> {
        if (i == 4) {
          throw new IllegalArgumentException("no data for client 4");
        }
        return f32(i);
      });
      assertThatThrownBy(() -> ctx.invoke(mean, gen))
          .isInstanceOfSatisfying(ClientFailureException.class, e -> {
            assertThat(e.client()).isEqualTo(4);
            assertThat(e.intrinsic()).isEqualTo("federated_mean");
          });
    }
  }

  @Test
  void invoke_badArguments_failWithTypedErrors() {
    Computation two = Federated.computation(Types.parse("{float32}@CLIENTS"),
        Types.parse("{float32}@CLIENTS"), Intrinsics::federatedWeightedMean);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(1))) {
      assertThatThrownBy(() -> ctx.invoke(two, values(3), values(4)))
          .isInstanceOf(CardinalityException.class).hasMessageContaining("4 clients");
      assertThatThrownBy(() -> ctx.invoke(two, values(2), List.of(f32(1), TestValues.i32(1))))
          .isInstanceOf(ValueMismatchException.class)
          .hasMessageContaining("client 1").hasMessageContaining("int32");
      assertThatThrownBy(() -> ctx.invoke(two, values(2)))
          .isInstanceOf(ValueMismatchException.class);
      Computation eval = Federated.computation(() -> Intrinsics.federatedEval(
          Federated.local("one", "( -> int32)", x -> TestValues.i32(1)),
          io.tributary.core.types.Placement.CLIENTS));
      assertThatThrownBy(() -> ctx.invoke(eval))
          .isInstanceOf(CardinalityException.class).hasMessageContaining("withPopulation");
    }
  }

  @Test
  void invoke_weightsSummingToZero_failsWithTypedError() {
    Computation wm = Federated.computation(Types.parse("{float32}@CLIENTS"),
        Types.parse("{float32}@CLIENTS"), Intrinsics::federatedWeightedMean);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(1))) {
      assertThatThrownBy(() -> ctx.invoke(wm, values(2), List.of(f32(0), f32(0))))
          .isInstanceOf(LocalComputationException.class).hasMessageContaining("sum to zero");
    }
  }
}
