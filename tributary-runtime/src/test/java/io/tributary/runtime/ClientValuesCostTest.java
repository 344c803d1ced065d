package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.Types;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A generated population's guess at each client's work orders a pass like the bytes of values
 * held in memory do, costliest first, and never changes a result.
 */
class ClientValuesCostTest {
  private static final int SIZE = 1000;
  private static final Computation SUM = Federated.computation(
      Types.parse("{float32[1000]}@CLIENTS"), Intrinsics::federatedSum);
  private static final long[] COSTS = {1, 50, 7, 50, 9};

  /** Runs SUM over five generated clients, recording the order their values are first made. */
  private static Object sum(int threads, long[] costs, List<Integer> made) {
    Set<Integer> first = Collections.synchronizedSet(new LinkedHashSet<>());
    ClientValues values = costs == null
        ? ClientValues.generate(COSTS.length, i -> value(i, first))
        : ClientValues.generate(COSTS.length, i -> value(i, first), i -> costs[i]);
    try (ExecutionContext ctx = ExecutionContext.create(
        RuntimeOptions.defaults().withThreads(threads).withSeed(3))) {
      Object result = ctx.invoke(SUM, values);
      synchronized (first) {
        made.addAll(first);
      }
      return result;
    }
  }

  private static Tensor value(int client, Set<Integer> first) {
    first.add(client);
    return DeterminismTest.orderSensitive(11, client, SIZE);
  }

  @Test
  void generateWithCosts_oneThread_makesCostliestClientsFirstTiesByIndex() {
    List<Integer> made = new ArrayList<>();
    sum(1, COSTS, made);
    // One thread holds at most two clients' partials uncombined, plus the lowest uncombined
    // client's (ClientPass): after the two costliest, client 0 has to come before 4 and 2.
    assertThat(made).containsExactly(1, 3, 0, 4, 2);
  }

  @Test
  void generateWithoutCosts_oneThread_makesClientsInIndexOrder() {
    List<Integer> made = new ArrayList<>();
    sum(1, null, made);
    assertThat(made).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void generateWithCosts_anyThreadCount_sameBitsAsWithout() {
    Tensor without = (Tensor) sum(1, null, new ArrayList<>());
    for (int threads : new int[] {1, 2, 4}) {
      Tensor with = (Tensor) sum(threads, COSTS, new ArrayList<>());
      assertThat(with.toFloatArray()).as("%d threads", threads)
          .isEqualTo(without.toFloatArray());
    }
  }

  @Test
  void cost_negativeGuess_isZero() {
    ClientValues values = ClientValues.generate(2, i -> i, i -> -5);
    assertThat(values.hasCosts()).isTrue();
    assertThat(values.cost(1)).isZero();
  }

  @Test
  void cost_withoutGuess_throwsNamingIt() {
    assertThat(ClientValues.generate(2, i -> i).hasCosts()).isFalse();
    assertThat(ClientValues.of(List.of(1, 2)).hasCosts()).isFalse();
    assertThatThrownBy(() -> ClientValues.generate(2, i -> i).cost(0))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("without costs");
  }
}
