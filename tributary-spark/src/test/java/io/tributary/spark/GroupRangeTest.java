package io.tributary.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Cutting a pass's groups into tasks. */
class GroupRangeTest {
  @Property
  void cut_coversEveryGroupOnceInOrderWithBalancedNonEmptyRanges(
      @ForAll @IntRange(min = 0, max = 5000) int groups,
      @ForAll @IntRange(min = 1, max = 300) int parts) {
    List<GroupRange> ranges = GroupRange.cut(groups, parts);
    assertThat(ranges).hasSize(Math.min(groups, parts));
    long next = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    for (GroupRange r : ranges) {
      assertThat(r.from()).isEqualTo(next);
      assertThat(r.to()).isGreaterThan(r.from());
      min = Math.min(min, r.to() - r.from());
      max = Math.max(max, r.to() - r.from());
      next = r.to();
    }
    assertThat(next).isEqualTo(groups);
    if (!ranges.isEmpty()) {
      assertThat(max - min).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void cut_examples() {
    assertThat(GroupRange.cut(5, 2)).containsExactly(new GroupRange(0, 3), new GroupRange(3, 5));
    assertThat(GroupRange.cut(2, 8)).containsExactly(new GroupRange(0, 1), new GroupRange(1, 2));
    assertThat(GroupRange.cut(0, 4)).isEmpty();
    assertThatThrownBy(() -> GroupRange.cut(3, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
