package io.tributary.ui.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class NodeStateTest {
  private static NodeState.Row row(int i, boolean failed, String detail) {
    return new NodeState.Row(Instant.EPOCH, "7", "train", Integer.toString(i),
        failed ? "error reply" : "replied", failed, detail, 0.25, 1000, 2000);
  }

  @Test
  void message_pastTheBound_keepsTheLatestAndCountsEvery() {
    NodeState state = new NodeState("node", 5);
    for (int i = 1; i <= 1000; i++) {
      state.message(row(i, i % 4 == 0, i % 4 == 0 ? "ValueError: <bad> " + i : ""));
    }

    PageSource.Rendered r = state.render("/* */");
    assertThat(r.main()).contains(">1000</div><div class=\"k\">messages handled")
        .contains(">250</div><div class=\"k\">failed")
        .contains("ValueError: &lt;bad&gt; 1000")
        .contains("the latest 5 messages, newest first (995 earlier not shown)")
        .doesNotContain("<td class=\"n\">995</td>");
    assertThat(r.main().split("<tr", -1).length - 1).isEqualTo(6);
    assertThat(r.ended()).isFalse();
  }

  @Test
  void ended_afterwardsStatusIsKeptAndTheDetailIsCut() {
    NodeState state = new NodeState("node", 5);
    state.message(row(1, true, "x".repeat(10_000) + "\nline"));
    state.ended("the node has stopped");
    state.status("active again");

    PageSource.Rendered r = state.render("");
    assertThat(r.ended()).isTrue();
    assertThat(r.main()).contains("the node has stopped").doesNotContain("active again")
        .doesNotContain("x".repeat(NodeState.MAX_DETAIL_CHARS));
  }
}
