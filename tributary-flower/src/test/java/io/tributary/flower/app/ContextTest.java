package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.records.RecordDict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The context's version as a SuperNode hands it over: 0 unless the node says otherwise. */
class ContextTest {
  @Test
  void constructor_withoutVersion_versionZero() {
    assertThat(new Context(1, 2, Map.of(), Map.of(), RecordDict.empty()).version()).isZero();
    assertThat(new Context(1, 2, Map.of(), Map.of(), RecordDict.empty(), "9", "").version())
        .isZero();
  }

  @Test
  void constructor_version_keptAsGiven() {
    Context c = new Context(1, 2, Map.of(), Map.of(), RecordDict.empty(), "9", "4", 3);
    assertThat(c.version()).isEqualTo(3);
    assertThat(c.seriesId()).contains("9");
    assertThat(c.primaryTaskId()).contains("4");
  }

  @Test
  void constructor_negativeVersion_refusedNamingIt() {
    assertThatThrownBy(() -> new Context(1, 2, Map.of(), Map.of(), RecordDict.empty(), "", "",
        -1)).isInstanceOf(IllegalArgumentException.class).hasMessage("version -1 is negative");
  }
}
