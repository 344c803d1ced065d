package io.tributary.runtime.executor.internal.pass;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;


class ClientPassOrderTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        // clients, group size, groups, costs, expected start order
        Arguments.of(5, 1, 5, new long[0], new int[] {0, 1, 2, 3, 4}),
        Arguments.of(5, 1, 5, new long[] {3, 3, 3, 3, 3}, new int[] {0, 1, 2, 3, 4}),
        Arguments.of(5, 1, 5, new long[] {1, 50, 7, 50, 9}, new int[] {1, 3, 4, 2, 0}),
        Arguments.of(6, 2, 3, new long[] {1, 1, 10, 0, 2, 2}, new int[] {1, 2, 0}),
        Arguments.of(1, 1, 1, new long[] {4}, new int[] {0}),
        // Costs for a different number of clients are ignored.
        Arguments.of(3, 1, 3, new long[] {1, 9}, new int[] {0, 1, 2}));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void startOrder_costs_costliestGroupsFirstTiesByIndex(int clients, int groupSize, int groups,
      long[] cost, int[] expected) {
    assertThat(ClientPass.startOrder(clients, groupSize, groups, cost)).containsExactly(expected);
  }
}
