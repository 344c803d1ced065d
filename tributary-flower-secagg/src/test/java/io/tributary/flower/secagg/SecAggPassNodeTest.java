package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.app.Context;
import io.tributary.flower.records.RecordDict;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggWire;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A node's side of a secure pass refuses a hostile server's stage entries, naming the entry. */
class SecAggPassNodeTest {
  private static final Context CONTEXT = new Context(1, 2, Map.of(), Map.of(),
      RecordDict.empty());

  private static Map<String, Object> advertise(long client, long clients, long neighbours,
      long threshold, long bits) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put(SecAggFlower.STAGE, "advertise_keys");
    v.put(SecAggFlower.GRAPH_SEED, 7L);
    v.put(SecAggFlower.CLIENT, client);
    v.put(SecAggFlower.CLIENTS, clients);
    v.put(SecAggFlower.NEIGHBOURS, neighbours);
    v.put(SecAggFlower.THRESHOLD, threshold);
    v.put(SecAggFlower.BITS, bits);
    return v;
  }

  @Test
  void installed_secAggOnTheClassPath_servesSecAggPlus() {
    assertThat(io.tributary.flower.passes.NodePasses.installed(
        io.tributary.flower.passes.NodeComputation.builder().build(),
        SecAggPassNodeTest.class.getClassLoader())).hasValueSatisfying(p ->
            assertThat(p.protocol()).hasValue("SecAgg+"));
    assertThat(new SecAggPasses().node()).isInstanceOf(SecAggPassNode.class);
  }

  @Test
  void stage_advertise_answersWithItsPublicKeys() throws Exception {
    Map<String, Object> reply = new SecAggPassNode().stage(advertise(1, 4, 3, 2, 20),
        Optional.empty(), CONTEXT);

    assertThat(SecAggWire.decode((byte[]) reply.get(SecAggFlower.MESSAGE)))
        .isInstanceOfSatisfying(SecAggMessage.AdvertiseKeys.class,
            m -> assertThat(m.client()).isEqualTo(1));
  }

  @Test
  void stage_hostileRoundParameters_refusedNamingTheEntryBeforeAllocating() {
    SecAggPassNode node = new SecAggPassNode();

    assertThatThrownBy(() -> node.stage(advertise(0, 1L << 40, 3, 2, 20), Optional.empty(),
        CONTEXT)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(SecAggFlower.CLIENTS);
    assertThatThrownBy(() -> node.stage(advertise(0, 1 << 20, (1 << 20) - 1, 600_000, 20),
        Optional.empty(), CONTEXT)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("edges");
    assertThatThrownBy(() -> node.stage(advertise(0, 4, 3, 2, 64), Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(SecAggFlower.BITS);
    assertThatThrownBy(() -> node.stage(advertise(5, 4, 3, 2, 20), Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(SecAggFlower.CLIENT);
    Map<String, Object> wrongKind = advertise(0, 4, 3, 2, 20);
    wrongKind.put(SecAggFlower.CLIENTS, "four");
    assertThatThrownBy(() -> node.stage(wrongKind, Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(SecAggFlower.CLIENTS + " must be an int");
  }

  @Test
  void stage_laterStageOfNoRoundOrWrongMessage_refused() throws Exception {
    SecAggPassNode node = new SecAggPassNode();
    Map<String, Object> share = new LinkedHashMap<>();
    share.put(SecAggFlower.STAGE, "share_keys");
    share.put(SecAggFlower.GRAPH_SEED, 7L);
    share.put(SecAggFlower.MESSAGE, new byte[] {1, 2, 3});

    assertThatThrownBy(() -> node.stage(share, Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no SecAgg+ round of session 7");

    Map<String, Object> keys = node.stage(advertise(0, 4, 3, 2, 20), Optional.empty(), CONTEXT);
    share.put(SecAggFlower.MESSAGE, keys.get(SecAggFlower.MESSAGE));
    assertThatThrownBy(() -> node.stage(share, Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries a AdvertiseKeys, not a KeyDirectory");
    Map<String, Object> mask = new LinkedHashMap<>(share);
    mask.put(SecAggFlower.STAGE, "masked_input");
    assertThatThrownBy(() -> node.stage(mask, Optional.empty(), CONTEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries no pass");
  }
}
