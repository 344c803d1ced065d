package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same seed gives bit-identical aggregates with 1, 2 and 8 threads, on the streaming path
 * (generated values) and the tiled path (values in memory), and both paths agree.
 */
class DeterminismTest {
  private static final int SIZE = 1000;

  private static Tensor update(long seed, int client) {
    return orderSensitive(seed, client, SIZE);
  }

  /**
   * Client values whose large parts (up to 1e25) cancel in pairs: client 2k+1 holds minus client
   * 2k's large value plus a small one. Small values are absorbed or kept depending on when the
   * large ones cancel, so any change of summation order shows in the float32 result. Shared with
   * {@code PassEngineTest}.
   */
  static Tensor orderSensitive(long seed, int client, int size) {
    SplittableRandom big = new SplittableRandom(Seeds.derive(seed, client & ~1));
    SplittableRandom small = new SplittableRandom(Seeds.derive(seed, client, 2));
    float[] v = new float[size];
    for (int i = 0; i < v.length; i++) {
      float large = (float) (big.nextGaussian() * Math.pow(10, big.nextInt(10, 25)));
      float tiny = (float) (small.nextGaussian() * Math.pow(10, small.nextInt(-3, 3)));
      v[i] = (client & 1) == 0 ? large : -large + tiny;
    }
    return Tensor.ofFloats(Shape.of(size), v);
  }

  private static Tensor weight(long seed, int client) {
    return Tensor.ofFloats(Shape.scalar(),
        1 + new SplittableRandom(Seeds.derive(seed, client, 1)).nextInt(500));
  }

  private static final Computation WEIGHTED = Federated.computation(
      Types.parse("{float32[1000]}@CLIENTS"), Types.parse("{float32}@CLIENTS"),
      Intrinsics::federatedWeightedMean);
  private static final Computation SUM = Federated.computation(
      Types.parse("{float32[1000]}@CLIENTS"), Intrinsics::federatedSum);
  private static final Computation AGGREGATE = Federated.computation(
      Types.parse("{float32[1000]}@CLIENTS"),
      x -> Intrinsics.federatedAggregate(x,
          Intrinsics.genericZero(Types.parse("float32[1000]")), plus(), plus(), identity()));

  private static Computation plus() {
    return Federated.computation(Types.parse("<float32[1000],float32[1000]>"),
        p -> Intrinsics.genericPlus(p.get(0), p.get(1)));
  }

  private static Computation identity() {
    return Federated.computation(Types.parse("float32[1000]"), x -> x);
  }

  private static Object run(int threads, Computation c, boolean inMemory, int clients,
      long seed) {
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withThreads(threads).withSeed(seed))) {
      ClientValues values = inMemory ? ClientValues.of(list(clients, i -> update(seed, i)))
          : ClientValues.generate(clients, i -> update(seed, i));
      if (c == WEIGHTED) {
        ClientValues weights = inMemory ? ClientValues.of(list(clients, i -> weight(seed, i)))
            : ClientValues.generate(clients, i -> weight(seed, i));
        return ctx.invoke(c, values, weights);
      }
      return ctx.invoke(c, values);
    }
  }

  private static List<Object> list(int n, java.util.function.IntFunction<Object> f) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(f.apply(i));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {7, 300, 2000})
  void weightedMean_oneTwoEightThreadsAndBothPaths_areBitIdentical(int clients) {
    Tensor one = (Tensor) run(1, WEIGHTED, false, clients, 42);
    assertThat(run(2, WEIGHTED, false, clients, 42)).isEqualTo(one);
    assertThat(run(8, WEIGHTED, false, clients, 42)).isEqualTo(one);
    assertThat(run(1, WEIGHTED, true, clients, 42)).isEqualTo(one);
    assertThat(run(2, WEIGHTED, true, clients, 42)).isEqualTo(one);
    assertThat(run(8, WEIGHTED, true, clients, 42)).isEqualTo(one);
    // A different seed changes the result, so the comparison above is not vacuous.
    assertThat(run(2, WEIGHTED, false, clients, 43)).isNotEqualTo(one);
  }

  @ParameterizedTest
  @ValueSource(ints = {2000})
  void sumAndAggregate_oneTwoEightThreads_areBitIdentical(int clients) {
    Tensor sum = (Tensor) run(1, SUM, false, clients, 5);
    assertThat(run(2, SUM, false, clients, 5)).isEqualTo(sum);
    assertThat(run(8, SUM, true, clients, 5)).isEqualTo(sum);
    Tensor agg = (Tensor) run(1, AGGREGATE, false, clients, 5);
    assertThat(run(2, AGGREGATE, false, clients, 5)).isEqualTo(agg);
    assertThat(run(8, AGGREGATE, false, clients, 5)).isEqualTo(agg);
  }

  @ParameterizedTest
  @ValueSource(ints = {2000})
  void sum_reversedClientOrder_changesTheBits(int n) {
    // Sanity check of the premise: float summation order matters for this data, so equal
    // results across thread counts are due to the fixed order, not to the data being benign.
    Tensor forward = (Tensor) run(1, SUM, true, n, 5);
    try (ExecutionContext ctx = ExecutionContext.create(RuntimeOptions.defaults().withThreads(1))) {
      Object reversed = ctx.invoke(SUM, ClientValues.of(list(n, i -> update(5, n - 1 - i))));
      assertThat(reversed).isNotEqualTo(forward);
          }
  }
}
