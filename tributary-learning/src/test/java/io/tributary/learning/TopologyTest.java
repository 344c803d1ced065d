package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.runtime.Edges;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Clients in contiguous edge blocks, drawn per edge so that every edge is in every round. */
class TopologyTest {
  private static final Topology.Hierarchical THREE = new Topology.Hierarchical(3, 2);
  private static final ClientSampler SAMPLER = new ClientSampler(42);

  @Test
  void sample_everyClient_isThePopulationInOrder() {
    assertThat(THREE.sample(SAMPLER, 5, 10, 10)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  }

  @Test
  void sample_fiveOfTen_drawsEachEdgesShareFromItsOwnBlock() {
    // Blocks of the population: [0, 4), [4, 7), [7, 10); shares of 5: 2, 2, 1.
    boolean[] seen = new boolean[10];
    for (int round = 0; round < 50; round++) {
      int[] c = THREE.sample(SAMPLER, round, 10, 5);
      assertThat(c).hasSize(5);
      assertThat(c[0]).isLessThan(c[1]).isLessThan(4);
      assertThat(c[2]).isGreaterThanOrEqualTo(4).isLessThan(c[3]);
      assertThat(c[3]).isLessThan(7);
      assertThat(c[4]).isGreaterThanOrEqualTo(7).isLessThan(10);
      assertThat(THREE.sample(SAMPLER, round, 10, 5)).containsExactly(c);
      for (int k : c) {
        seen[k] = true;
      }
    }
    boolean[] all = new boolean[10];
    Arrays.fill(all, true);
    assertThat(seen).containsExactly(all);
  }

  @Test
  void cohortEdges_fiveClients_areTheSharesTheSampleListsEdgeByEdge() {
    assertThat(THREE.cohortEdges(5)).isEqualTo(Edges.contiguous(2, 2, 1));
    for (int k = 0; k < 10; k++) {
      assertThat(THREE.edgeOf(k, 10)).isEqualTo(k < 4 ? 0 : k < 7 ? 1 : 2);
    }
  }

  @Test
  void samplingRate_fiveOfTen_isTheLargestShareOfAnEdge() {
    assertThat(THREE.samplingRate(10, 5)).isEqualTo(2.0 / 3);
    assertThat(THREE.samplingRate(10, 10)).isEqualTo(1.0);
  }

  @Test
  void badCounts_areRefusedNamingThem() {
    assertThatThrownBy(() -> THREE.cohortEdges(2))
        .hasMessage("edges (3) must be at most the clients per round (2): every edge needs a "
            + "client each round");
    assertThatThrownBy(() -> THREE.sample(SAMPLER, 0, 4, 5))
        .hasMessageContaining("cannot sample 5 clients from a population of 4");
    assertThatThrownBy(() -> new Topology.Hierarchical(0, 1)).hasMessageContaining("edges must");
    assertThatThrownBy(() -> new Topology.Hierarchical(2, 0))
        .hasMessage("edge_rounds must be 1 to 1000, got 0");
  }
}
