package io.tributary.runtime;

import static io.tributary.runtime.TestValues.i32;
import static io.tributary.runtime.TestValues.i32v;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.core.values.StructValue;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RuntimeOptions#withSecureSum}: the secure sums hand the clients' vectors to the hook. */
class SecureSumHookTest {
  /** A hook that adds in the clear and keeps every request it received. */
  private static final class Recording implements SecureSummation {
    final List<SecureSumRequest> requests = new ArrayList<>();

    @Override
    public long[] sum(SecureSumRequest request) {
      requests.add(request);
      long[] out = new long[request.length()];
      for (long[] x : request.inputs()) {
        for (int i = 0; i < out.length; i++) {
          out[i] += x[i];
        }
      }
      return out;
    }
  }

  private static Object run(RuntimeOptions options, Computation c, Object... args) {
    try (ExecutionContext ctx = ExecutionContext.create(options.withThreads(2))) {
      return ctx.invoke(c, args);
    }
  }

  private static Computation bitwidth(String type, int bits) {
    return Federated.computation(Types.parse(type),
        x -> Intrinsics.federatedSecureSumBitwidth(x, Federated.constant(i32(bits))));
  }

  @Test
  void secureSumBitwidth_withHook_givesThePlainResultAndCallsTheHookOnce() {
    Computation c = bitwidth("{int32[3]}@CLIENTS", 4);
    List<Object> clients = List.of(i32v(1, 15, 0), i32v(7, 15, 3), i32v(9, 2, 0));
    Recording hook = new Recording();

    Object plain = run(RuntimeOptions.defaults(), c, clients);
    Object secure = run(RuntimeOptions.defaults().withSecureSum(hook), c, clients);

    assertThat(secure).isEqualTo(plain).isEqualTo(i32v(1, 0, 3));
    assertThat(hook.requests).hasSize(1);
    SecureSumRequest r = hook.requests.get(0);
    assertThat(r.intrinsic()).isEqualTo("federated_secure_sum_bitwidth");
    assertThat(r.inputs()).containsExactly(new long[] {1, 15, 0}, new long[] {7, 15, 3},
        new long[] {9, 2, 0});
    assertThat(r.maxInput()).containsExactly(15, 15, 15);
    assertThat(r.sumBits()).isEqualTo(6);
  }

  @Test
  void secureSumToEdges_withHook_callsTheHookOncePerEdgeWithItsClientsOnly() {
    Computation c = Federated.computation(Types.parse("{int32}@CLIENTS"),
        x -> Intrinsics.federatedSecureSumToEdges(x, Federated.constant(i32(10))));
    List<Object> clients = List.of(i32(1), i32(2), i32(3), i32(4), i32(5));
    Recording hook = new Recording();
    RuntimeOptions options = RuntimeOptions.defaults().withEdges(Edges.of(2, 0, 1, 0, 1, 0))
        .withSecureSum(hook);

    assertThat(run(options, c, clients)).isEqualTo(List.of(i32(9), i32(6)));
    assertThat(hook.requests).hasSize(2);
    assertThat(hook.requests.get(0).intrinsic()).isEqualTo("federated_secure_sum_to_edges");
    assertThat(hook.requests.get(0).inputs()).containsExactly(new long[] {1}, new long[] {3},
        new long[] {5});
    assertThat(hook.requests.get(1).inputs()).containsExactly(new long[] {2}, new long[] {4});
  }

  @Test
  void secureSum_structWithOneBoundPerElement_flattensInLeafOrderWithEachBound() {
    Computation c = Federated.computation(Types.parse("{<int32,int64[2]>}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x, Federated.struct(
            Federated.constant(i32(10)), Federated.constant(i32(1000)))));
    List<Object> clients = List.of(
        StructValue.of(i32(3), Tensor.ofLongs(Shape.of(2), 5, 900)),
        StructValue.of(i32(10), Tensor.ofLongs(Shape.of(2), 0, 1000)));
    Recording hook = new Recording();

    Object plain = run(RuntimeOptions.defaults(), c, clients);
    Object secure = run(RuntimeOptions.defaults().withSecureSum(hook), c, clients);

    assertThat(secure).isEqualTo(plain);
    assertThat(hook.requests.get(0).maxInput()).containsExactly(10, 1000, 1000);
    assertThat(hook.requests.get(0).sumBits()).isEqualTo(11);
  }

  @Test
  void secureSum_valueAboveTheBound_failsThatClientBeforeTheHookRuns() {
    Computation c = Federated.computation(Types.parse("{int32}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x, Federated.constant(i32(10))));
    Recording hook = new Recording();

    assertThatThrownBy(() -> run(RuntimeOptions.defaults().withSecureSum(hook), c,
        List.of(i32(1), i32(11), i32(2))))
        .isInstanceOfSatisfying(ClientFailureException.class, e -> {
          assertThat(e.client()).isEqualTo(1);
          assertThat(e.getMessage()).contains("outside [0, 10]");
        });
    assertThat(hook.requests).isEmpty();
  }

  @Test
  void secureSum_toleratedClientFailure_handsOnlyTheSucceedingClientsToTheHook() {
    Computation c = Federated.computation(Types.parse("{int32}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x, Federated.constant(i32(10))));
    List<Object> clients = List.of(i32(1), i32(11), i32(2), i32(4));
    RuntimeOptions tolerant = RuntimeOptions.defaults().withMinSuccessFraction(0.5);
    Recording hook = new Recording();

    Object plain = run(tolerant, c, clients);
    Object secure = run(tolerant.withSecureSum(hook), c, clients);

    assertThat(secure).isEqualTo(plain).isEqualTo(i32(7));
    assertThat(hook.requests.get(0).inputs()).containsExactly(new long[] {1}, new long[] {2},
        new long[] {4});
  }

  @Test
  void secureSum_hookRefuses_failsTheInvocationWithItsTypedError() {
    Computation c = Federated.computation(Types.parse("{int32}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x, Federated.constant(i32(10))));
    SecureSummation refusing = r -> {
      throw new SecureSumException("too few survivors");
    };

    assertThatThrownBy(() -> run(RuntimeOptions.defaults().withSecureSum(refusing), c,
        List.of(i32(1), i32(2))))
        .isInstanceOf(SecureSumException.class).hasMessageContaining("too few survivors");
  }

  @Test
  void sumBits_manyClientsOrWideValues_coversTheExactSumUpTo64Bits() {
    assertThat(SecureSumRequest.sumBits(255, 1)).isEqualTo(8);
    assertThat(SecureSumRequest.sumBits(255, 2)).isEqualTo(9);
    assertThat(SecureSumRequest.sumBits(255, 5)).isEqualTo(11);
    assertThat(SecureSumRequest.sumBits(0, 3)).isEqualTo(2);
    assertThat(SecureSumRequest.sumBits(Long.MAX_VALUE, 4)).isEqualTo(64);
  }
}
