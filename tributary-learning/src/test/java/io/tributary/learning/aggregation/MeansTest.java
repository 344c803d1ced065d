package io.tributary.learning.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link WeightedMean#of} and {@link UnweightedMean#of} over a round's updates. */
class MeansTest {
  private static ClientUpdates twoClients(long first, long second) {
    return new ClientUpdates(List.of(
        List.of(Tensor.ofFloats(Shape.of(2), 1, 2)),
        List.of(Tensor.ofFloats(Shape.of(2), 4, 8))), new long[] {first, second});
  }

  @Test
  void weightedMeanOf_twoClients_weighsEachByItsExamples() {
    List<Tensor> got = WeightedMean.of(twoClients(1, 3));

    assertThat(got).containsExactly(Tensor.ofFloats(Shape.of(2), 3.25f, 6.5f));
  }

  @Test
  void weightedMeanOf_everyClientZeroExamples_throwsIllegalArgument() {
    assertThatThrownBy(() -> WeightedMean.of(twoClients(0, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("every client reports 0 examples");
  }

  @Test
  void unweightedMeanOf_twoClients_countsEachOnce() {
    List<Tensor> got = UnweightedMean.of(twoClients(1, 3));

    assertThat(got).containsExactly(Tensor.ofFloats(Shape.of(2), 2.5f, 5f));
  }
}
