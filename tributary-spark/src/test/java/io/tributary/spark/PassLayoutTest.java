package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Cutting a pass's groups into combined ranges and tasks. */
class PassLayoutTest {
  @Property
  void of_combinedRangesAlignedAndTasksNestedInThem(
      @ForAll @IntRange(min = 0, max = 3000) int groups,
      @ForAll @IntRange(min = 1, max = 300) int tasks,
      @ForAll @IntRange(min = 1, max = 40) int combine) {
    PassLayout layout = PassLayout.of(groups, tasks, combine);
    List<GroupRange> combined = layout.combined();
    assertThat(combined.size()).isLessThanOrEqualTo(Math.min(tasks, combine));
    long size = 1L << layout.shift();
    long next = 0;
    for (GroupRange c : combined) {
      assertThat(c.from()).isEqualTo(next).isEqualTo(c.from() / size * size);
      assertThat(c.to() - c.from()).isEqualTo(Math.min(size, groups - c.from()));
      next = c.to();
    }
    assertThat(next).isEqualTo(groups);
    next = 0;
    for (GroupRange t : layout.tasks()) {
      assertThat(t.from()).isEqualTo(next);
      assertThat(t.to()).isGreaterThan(t.from());
      assertThat((t.to() - 1) >> layout.shift()).isEqualTo(t.from() >> layout.shift());
      next = t.to();
    }
    assertThat(next).isEqualTo(groups);
    assertThat(layout.tasks().size()).isLessThan(tasks + Math.max(1, combined.size()));
    // The combined ranges, what the driver receives, do not depend on the tasks.
    if (tasks >= combine) {
      assertThat(combined).isEqualTo(PassLayout.of(groups, combine, combine).combined());
    }
  }

  @Property
  void of_edgesOfALevel_neverSplitBetweenCombinedRanges(
      @ForAll @IntRange(min = 0, max = 3000) int groups,
      @ForAll @IntRange(min = 1, max = 300) int tasks,
      @ForAll @IntRange(min = 1, max = 40) int combine,
      @ForAll @IntRange(min = 0, max = 12) int edgeLevel) {
    PassLayout layout = PassLayout.of(groups, tasks, combine, edgeLevel);
    assertThat(layout.shift()).isGreaterThanOrEqualTo(edgeLevel);
    long edge = 1L << edgeLevel;
    for (GroupRange c : layout.combined()) {
      // Each edge [j 2^level, (j+1) 2^level) starts and ends inside one combined range.
      assertThat(c.from() % edge).isZero();
      assertThat(c.to() == groups || c.to() % edge == 0).isTrue();
    }
  }

  @Test
  void of_examples() {
    PassLayout edges = PassLayout.of(256, 16, 8, 6);
    assertThat(edges.combined()).containsExactly(new GroupRange(0, 64), new GroupRange(64, 128),
        new GroupRange(128, 192), new GroupRange(192, 256));
    assertThat(edges.tasks()).hasSize(16);
    assertThat(PassLayout.of(256, 16, 2, 6).combined()).hasSize(2);
    PassLayout l = PassLayout.of(256, 16, 2);
    assertThat(l.combined()).containsExactly(new GroupRange(0, 128), new GroupRange(128, 256));
    assertThat(l.tasks()).hasSize(16);
    assertThat(l.single()).isFalse();
    PassLayout few = PassLayout.of(10, 3, 4);
    assertThat(few.combined()).containsExactly(new GroupRange(0, 4), new GroupRange(4, 8),
        new GroupRange(8, 10));
    assertThat(few.single()).isTrue();
    assertThat(PassLayout.of(0, 4, 2).tasks()).isEmpty();
    assertThatThrownBy(() -> PassLayout.of(3, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PassLayout.of(3, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PassLayout.of(3, 1, 1, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
