package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Edge assignments: their sizes and whether they follow a client pass's reduction tree. */
class EdgesTest {
  @Test
  void contiguous_sizes_giveEachClientItsEdge() {
    Edges e = Edges.contiguous(2, 0, 3);
    assertThat(e.count()).isEqualTo(3);
    assertThat(e.clients()).isEqualTo(5);
    assertThat(e.size(1)).isZero();
    assertThat(e.edgeOf(1)).isZero();
    assertThat(e.edgeOf(2)).isEqualTo(2);
  }

  @Test
  void followsReductionTree_nodesOfOneLevel_holds() {
    assertThat(Edges.even(8, 8).followsReductionTree()).isTrue();     // the leaves
    assertThat(Edges.even(8, 2).followsReductionTree()).isTrue();     // level 2
    assertThat(Edges.even(8, 1).followsReductionTree()).isTrue();     // the root
    assertThat(Edges.even(1024, 16).followsReductionTree()).isTrue(); // groups of 4, level 4
    assertThat(Edges.contiguous(512, 512).followsReductionTree()).isTrue();
  }

  @Test
  void followsReductionTree_edgesAcrossNodes_doesNotHold() {
    assertThat(Edges.even(8, 3).followsReductionTree()).isFalse();
    assertThat(Edges.even(1000, 7).followsReductionTree()).isFalse();
    assertThat(Edges.of(2, 0, 1, 0, 1).followsReductionTree()).isFalse();
    assertThat(Edges.contiguous(2, 6).followsReductionTree()).isFalse();
    assertThat(Edges.contiguous(1, 2, 1).followsReductionTree()).isFalse();
  }
}
