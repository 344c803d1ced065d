package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.runtime.SecureSumRequest;
import io.tributary.runtime.SecureSummation;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The runtime's secure sums computed by SecAgg+ through {@link RuntimeOptions#withSecureSum}. */
class SecureSumRuntimeTest {
  private static final SecAggSettings SETTINGS = SecAggSettings.of(4, 3, 8, 99)
      .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(99));

  private static Object run(RuntimeOptions options, Computation c, Object arg) {
    try (ExecutionContext ctx = ExecutionContext.create(options.withThreads(2))) {
      return ctx.invoke(c, arg);
    }
  }

  private static List<Object> clients(DType dtype, int n, int m, long max, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(TensorMath.fromLongs(dtype, Shape.of(m), r.longs(m, 0, max + 1).toArray()));
    }
    return out;
  }

  @ParameterizedTest(name = "{0} bitwidth {1}, {2} clients")
  @CsvSource({"int32,8,7", "int64,40,10", "int8,6,5", "int16,12,3", "uint8,8,6", "uint16,16,9",
      "uint32,31,4", "uint64,62,6", "int64,62,12"})
  void secureSumBitwidth_withSecAgg_equalsThePlainSumAndRunsTheProtocol(String dtype, int bits,
      int n) {
    Computation c = Federated.computation(Types.parse("{" + dtype + "[5]}@CLIENTS"),
        x -> Intrinsics.federatedSecureSumBitwidth(x,
            Federated.constant(Tensor.ofInts(Shape.scalar(), bits))));
    List<Object> values = clients(DType.valueOf(dtype.toUpperCase(java.util.Locale.ROOT)), n, 5,
        (1L << bits) - 1, 31L * n + bits);
    List<SecAggTranscript> rounds = new ArrayList<>();

    Object plain = run(RuntimeOptions.defaults(), c, values);
    Object secure = run(RuntimeOptions.defaults()
        .withSecureSum(SecAggPlus.secureSummation(SETTINGS, rounds::add)), c, values);

    assertThat(secure).isEqualTo(plain);
    assertThat(rounds).hasSize(1);
    SecAggTranscript t = rounds.get(0);
    assertThat(t.maskedInputs()).hasSize(n);
    assertThat(t.sum()).isPresent();
    for (var m : t.maskedInputs()) {
      assertThat(m.masked()).isNotEqualTo(TensorMath.toLongs((Tensor) values.get(m.client())));
    }
  }

  @Test
  void secureSum_withSecAgg_isTheExactSum() {
    Computation c = Federated.computation(Types.parse("{int32[4]}@CLIENTS"),
        x -> Intrinsics.federatedSecureSum(x,
            Federated.constant(Tensor.ofInts(Shape.scalar(), 1000))));
    List<Object> values = clients(DType.INT32, 9, 4, 1000, 5);
    int[] rounds = {0};

    Object secure = run(RuntimeOptions.defaults()
        .withSecureSum(SecAggPlus.secureSummation(SETTINGS, t -> rounds[0]++)), c, values);

    assertThat(secure).isEqualTo(run(RuntimeOptions.defaults(), c, values));
    assertThat(rounds[0]).isEqualTo(1);
  }

  @Test
  void secureSummation_inputAboveItsBound_failsTypedNamingTheClient() {
    SecureSummation s = SecAggPlus.secureSummation(SETTINGS);
    List<long[]> inputs = List.of(new long[] {1, 2}, new long[] {3, 4}, new long[] {5, 11});

    assertThatThrownBy(() -> s.sum(SecureSumRequest.of("federated_secure_sum", inputs,
        new long[] {10, 10})))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(SecAggException.Reason.INPUT_OUT_OF_RANGE);
          assertThat(e.client()).hasValue(2);
          assertThat(e.getMessage()).contains("client 2");
        });
  }

  @Test
  void secureSummation_twoClientsFewerThanTheNeighbours_adaptsTheGraphAndSums() {
    SecureSummation s = SecAggPlus.secureSummation(SETTINGS);

    long[] sum = s.sum(SecureSumRequest.of("federated_secure_sum",
        List.of(new long[] {7, 0}, new long[] {9, 3}), new long[] {10, 10}));

    assertThat(sum).containsExactly(16, 3);
  }
}
