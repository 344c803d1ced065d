package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeConfigTest {
  @Test
  void parse_flowerStylePairs_typedValuesInOrder() {
    Map<String, Object> want = new LinkedHashMap<>();
    want.put("partition-id", 0L);
    want.put("num-partitions", 10L);
    want.put("lr", 0.5);
    want.put("name", "a b");
    want.put("on", true);
    want.put("bare", "word");
    assertThat(NodeConfig.parse("partition-id=0 num-partitions=10, lr=0.5 name=\"a b\" "
        + "on=true bare=word")).containsExactlyEntriesOf(want);
  }

  @Test
  void parse_pairWithoutEquals_refused() {
    assertThatThrownBy(() -> NodeConfig.parse("k=1 oops"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("oops");
  }
}
