package io.tributary.runtime;

import static io.tributary.runtime.TestValues.i32;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import org.junit.jupiter.api.Test;

/** {@link SecureSummation#intrinsicsIn}: which secure sums a computation calls. */
class SecureSumIntrinsicsTest {
  private static final String CLIENTS = "{int32[3]}@CLIENTS";

  @Test
  void intrinsicsIn_plainSum_isEmpty() {
    Computation c = Federated.computation(Types.parse(CLIENTS), Intrinsics::federatedSum);

    assertThat(SecureSummation.intrinsicsIn(c)).isEmpty();
  }

  @Test
  void intrinsicsIn_bothSecureSumsBesideAPlainOne_namesEachOnceInOrder() {
    Computation c = Federated.computation(Types.parse(CLIENTS), x -> Federated.struct(
        Intrinsics.federatedSum(x),
        Intrinsics.federatedSecureSumBitwidth(x, Federated.constant(i32(8))),
        Intrinsics.federatedSecureSum(x, Federated.constant(i32(100))),
        Intrinsics.federatedSecureSumBitwidth(x, Federated.constant(i32(4)))));

    assertThat(SecureSummation.intrinsicsIn(c)).containsExactly("federated_secure_sum",
        "federated_secure_sum_bitwidth");
  }

  @Test
  void intrinsicsIn_secureSumInACalledComputation_isFound() {
    Computation inner = Federated.computation(Types.parse(CLIENTS),
        x -> Intrinsics.federatedSecureSumBitwidth(x, Federated.constant(i32(8))));
    Computation outer = Federated.computation(Types.parse(CLIENTS),
        x -> Intrinsics.federatedBroadcast(inner.call(x)));

    assertThat(SecureSummation.intrinsicsIn(outer))
        .containsExactly("federated_secure_sum_bitwidth");
  }
}
