package io.tributary.flower.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.testing.EchoFitClient;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A secure pass's stages over the Join transport: a stage message travels in a FitIns config and
 * its reply in FitRes metrics unchanged; what a hostile peer sends in their place is refused
 * naming the entry; a Join client served by {@link NodePasses} answers stages with the
 * protocol's node side, the capability query with its client-pass version, and everything else
 * with its own client.
 */
class JoinPassLayoutTest {
  private static RecordDict stageMessage() {
    Map<String, Object> stage = new LinkedHashMap<>();
    stage.put("stage", "share_keys");
    stage.put("graph_seed", -7L);
    stage.put("message", new byte[] {1, 2, 3});
    Map<String, Object> pass = new LinkedHashMap<>();
    pass.put(SecurePassMessages.COMPUTATION, SecurePassMessages.NEXT);
    pass.put(SecurePassMessages.MAX_WEIGHT, 2.5);
    return RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(stage),
        SecurePassMessages.PASS_RECORD, new ConfigRecord(pass));
  }

  @Test
  void stage_ofFitInsConfig_isTheStageMessageSent() throws Exception {
    Map<String, Scalar> config = JoinPassLayout.fitInsConfig(stageMessage());

    assertThat(JoinPassLayout.isStage(config)).isTrue();
    RecordDict read = JoinPassLayout.stage(config);
    Map<String, Object> stage = ((ConfigRecord) read.get(SecurePassMessages.STAGE_RECORD))
        .values();
    assertThat(stage).containsEntry("stage", "share_keys").containsEntry("graph_seed", -7L);
    assertThat((byte[]) stage.get("message")).containsExactly(1, 2, 3);
    assertThat(((ConfigRecord) read.get(SecurePassMessages.PASS_RECORD)).values())
        .containsEntry(SecurePassMessages.MAX_WEIGHT, 2.5);
  }

  @Test
  void isStage_plainFitConfig_false() {
    assertThat(JoinPassLayout.isStage(Map.of("lr", Scalar.of(0.1)))).isFalse();
  }

  @Test
  void reply_keyOfNoReplyRecord_refusedNamingTheKey() {
    Map<String, Scalar> metrics = new LinkedHashMap<>(JoinPassLayout.fitResMetrics(
        RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of("k", 1L)))));
    metrics.put(SecurePassMessages.SPEC_RECORD + "/algorithm", Scalar.of("fedavg"));

    assertThatThrownBy(() -> JoinPassLayout.reply(metrics))
        .isInstanceOf(JoinPassLayout.MalformedException.class)
        .hasMessageContaining("'tributary.spec/algorithm'");
  }

  @Test
  void reply_keyWithoutRecord_refusedNamingTheKey() {
    assertThatThrownBy(() -> JoinPassLayout.reply(Map.of("loss", Scalar.of(0.5))))
        .isInstanceOf(JoinPassLayout.MalformedException.class)
        .hasMessageContaining("the FitRes metrics holds 'loss'");
  }

  @Test
  void reply_overTheEntryBound_refused() {
    Map<String, Scalar> metrics = new LinkedHashMap<>();
    for (int i = 0; i <= JoinPassLayout.MAX_ENTRIES; i++) {
      metrics.put(SecurePassMessages.STAGE_RECORD + "/k" + i, Scalar.of(1L));
    }

    assertThatThrownBy(() -> JoinPassLayout.reply(metrics))
        .isInstanceOf(JoinPassLayout.MalformedException.class)
        .hasMessageContaining("over " + JoinPassLayout.MAX_ENTRIES);
  }

  @Test
  void stage_withoutTheMarker_refused() {
    assertThatThrownBy(() -> JoinPassLayout.stage(Map.of(SecurePassMessages.STAGE_RECORD
        + "/k", Scalar.of(1L)))).isInstanceOf(JoinPassLayout.MalformedException.class)
        .hasMessageContaining(JoinPassLayout.MESSAGE_TYPE_KEY);
  }

  @Test
  void fitInsConfig_listEntry_refusedNamingIt() {
    RecordDict content = RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(
        Map.of("keys", List.of(1L, 2L))));

    assertThatThrownBy(() -> JoinPassLayout.fitInsConfig(content))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'tributary.stage/keys' is a list");
  }

  /** A client that trains by returning its parameters and states one property. */
  private static EchoFitClient plain() {
    return new EchoFitClient(List.of(), Map.of("os", Scalar.of("linux")));
  }

  private static FlowerClient served(EchoFitClient plain,
      AtomicReference<Optional<ClientReplay>> seen) {
    SecurePassNode echo = (values, replay, context) -> {
      seen.set(replay);
      Map<String, Object> out = new LinkedHashMap<>(values);
      out.put("seen", true);
      return out;
    };
    return NodePasses.of(NodeComputation.builder().build(), echo).serve(plain);
  }

  @Test
  void serveJoin_capabilityQuery_statesClientPasses() throws Exception {
    FlowerClient served = served(plain(), new AtomicReference<>());

    Map<String, Scalar> answer = served.getProperties(ClientPasses.query());

    assertThat(ClientPasses.read(answer)).isEqualTo(new ClientPasses.Support.Capable(
        ClientPasses.PROTOCOL_VERSION));
    assertThat(served.getProperties(Map.of())).containsEntry("os", Scalar.of("linux"));
  }

  @Test
  void serveJoin_stageWithoutPass_answeredByTheProtocolInFitResMetrics() throws Exception {
    EchoFitClient plain = plain();
    AtomicReference<Optional<ClientReplay>> seen = new AtomicReference<>();
    RecordDict content = RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(
        Map.of("k", 1L)));

    FitRes res = served(plain, seen).fit(new FitIns(List.of(),
        JoinPassLayout.fitInsConfig(content)));

    assertThat(res.parameters()).isEmpty();
    assertThat(res.numExamples()).isZero();
    RecordDict reply = JoinPassLayout.reply(res.metrics());
    assertThat(((ConfigRecord) reply.get(SecurePassMessages.STAGE_RECORD)).values())
        .containsEntry("seen", true).containsEntry("k", 1L);
    assertThat(reply.get(SecurePassMessages.PART_RECORD)).isNull();
    assertThat(seen.get()).isEmpty();
    assertThat(plain.fits()).isZero();
  }

  @Test
  void serveJoin_hostileStage_refusedNamingTheEntry() {
    Map<String, Scalar> config = new LinkedHashMap<>(JoinPassLayout.fitInsConfig(
        RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of("k", 1L)))));
    config.put("tributary.part/payload", new Scalar.Bytes(new byte[8]));
    FlowerClient served = served(plain(), new AtomicReference<>());

    assertThatThrownBy(() -> served.fit(new FitIns(List.of(), config)))
        .isInstanceOf(FlowerClientException.class)
        .hasMessageContaining("'tributary.part/payload'");
  }

  @Test
  void serveJoin_plainFit_goesToTheClient() throws Exception {
    EchoFitClient plain = plain();
    Tensor t = Tensor.ofDoubles(Shape.of(2), new double[] {1, 2});

    FitRes res = served(plain, new AtomicReference<>()).fit(new FitIns(List.of(t),
        Map.of("lr", Scalar.of(0.1))));

    assertThat(plain.fits()).isEqualTo(1);
    assertThat(res.parameters()).containsExactly(t);
  }
}
