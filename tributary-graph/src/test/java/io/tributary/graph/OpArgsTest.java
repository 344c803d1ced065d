package io.tributary.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpArgsTest {
  @Test
  void getIntList_listsWithSharedPrefixes_eachReadsItsOwnEntries() {
    long[] eleven = new long[11];
    for (int i = 0; i < eleven.length; i++) {
      eleven[i] = 100 + i;
    }
    OpArgs args = OpArgs.builder()
        .putIntList("ax", 7)
        .putIntList("axes", eleven)
        .putIntList("axes2", 5, 6)
        .putInt("axe", 3)
        .build();
    assertThat(args.getIntList("axes")).containsExactly(eleven);
    assertThat(args.getIntList("ax")).containsExactly(7);
    assertThat(args.getIntList("axes2")).containsExactly(5, 6);
    assertThat(args.getInt("axe", -1)).isEqualTo(3);
    assertThat(args.getIntList("axe")).isNull();
  }

  @Test
  void getIntList_absent_isNull() {
    OpArgs args = OpArgs.builder().putInt("axes", 1).putIntList("axis", 0).build();
    assertThat(args.getIntList("axes")).isNull();
    assertThat(args.getIntList("a")).isNull();
    assertThat(OpArgs.none().getIntList("axes")).isNull();
  }

  @Test
  void getIntList_emptyList_isEmpty() {
    OpArgs args = OpArgs.builder().putIntList("perm").build();
    assertThat(args.getIntList("perm")).isEmpty();
  }

  @Test
  void getIntList_missingOrMisnumberedElement_namesTheElement() {
    // "axes#01" is not element 1: an element's index has no leading zero.
    OpArgs args = OpArgs.builder().putInt("axes#len", 2).putInt("axes#0", 4)
        .putInt("axes#01", 5).build();
    assertThatThrownBy(() -> args.getIntList("axes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("axes lacks element 1");
  }

  @Test
  void getIntList_badLength_isRejected() {
    OpArgs args = OpArgs.builder().putInt("axes#len", -1).build();
    assertThatThrownBy(() -> args.getIntList("axes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad length -1");
  }
}
