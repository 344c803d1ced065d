package io.tributary.flower.passes;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A node's served app answers secure-pass messages with the protocol's node side, refuses a
 * hostile server's malformed pass with an error reply naming the entry, states that it runs
 * client passes, and passes its app's own messages through.
 */
class NodePassesTest {
  private static final Context CONTEXT = new Context(7, 42, Map.of(), Map.of(),
      RecordDict.empty());

  private static Message message(String type, RecordDict content) {
    return Message.ofContent(new Metadata(7, "m1", 0, 42, "", "1", 60, type, 0), content);
  }

  private static ClientApp served(AtomicReference<Optional<ClientReplay>> seen) {
    SecurePassNode echo = (values, replay, context) -> {
      seen.set(replay);
      Map<String, Object> out = new LinkedHashMap<>(values);
      out.put("seen", true);
      return out;
    };
    ClientApp app = ClientApp.builder().evaluate((m, c) -> m.reply(RecordDict.of("metrics",
        new io.tributary.flower.records.MetricRecord(Map.of("num-examples", 1L))))).build();
    return NodePasses.of(NodeComputation.builder().build(), echo).serve(app);
  }

  @Test
  void serve_stageWithoutPass_answeredByTheProtocolWithoutAReplay() {
    AtomicReference<Optional<ClientReplay>> seen = new AtomicReference<>();
    Message reply = served(seen).handle(message(SecurePassMessages.MESSAGE_TYPE,
        RecordDict.of(SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of("k", 1L)))),
        CONTEXT);

    assertThat(reply.error()).isEmpty();
    assertThat(((ConfigRecord) reply.content().get(SecurePassMessages.STAGE_RECORD)).values())
        .containsEntry("seen", true).containsEntry("k", 1L);
    assertThat(reply.content().get(SecurePassMessages.PART_RECORD)).isNull();
    assertThat(seen.get()).isEmpty();
  }

  @Test
  void serve_hostilePass_errorReplyNamingTheEntry() {
    AtomicReference<Optional<ClientReplay>> seen = new AtomicReference<>();
    ClientApp app = served(seen);
    Map<String, Object> pass = new LinkedHashMap<>();
    pass.put(SecurePassMessages.COMPUTATION, "initialize");
    Message noStage = message(SecurePassMessages.MESSAGE_TYPE, RecordDict.empty());
    Message badComputation = message(SecurePassMessages.MESSAGE_TYPE, RecordDict.of(
        SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of()),
        SecurePassMessages.PASS_RECORD, new ConfigRecord(pass)));
    pass.put(SecurePassMessages.COMPUTATION, SecurePassMessages.NEXT);
    pass.put(SecurePassMessages.PASS, 0L);
    pass.put(SecurePassMessages.CLIENT, -1L);
    Message badClient = message(SecurePassMessages.MESSAGE_TYPE, RecordDict.of(
        SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of()),
        SecurePassMessages.PASS_RECORD, new ConfigRecord(pass)));
    pass.put(SecurePassMessages.CLIENT, 0L);
    pass.put(SecurePassMessages.INPUTS, "not bytes");
    Message badInputs = message(SecurePassMessages.MESSAGE_TYPE, RecordDict.of(
        SecurePassMessages.STAGE_RECORD, new ConfigRecord(Map.of()),
        SecurePassMessages.PASS_RECORD, new ConfigRecord(pass)));

    for (var e : List.of(Map.entry(noStage, SecurePassMessages.STAGE_RECORD),
        Map.entry(badComputation, SecurePassMessages.COMPUTATION),
        Map.entry(badClient, SecurePassMessages.CLIENT + " is out of range"),
        Map.entry(badInputs, SecurePassMessages.INPUTS + " must be bytes"))) {
      Message reply = app.handle(e.getKey(), CONTEXT);
      assertThat(reply.error()).as(e.getValue()).hasValueSatisfying(err ->
          assertThat(err.reason()).contains(e.getValue()));
    }
    assertThat(seen.get()).isNull();
  }

  @Test
  void serve_statesTheCapabilityAndPassesTheAppsMessagesThrough() {
    ClientApp app = served(new AtomicReference<>());

    assertThat(app.capabilities()).isPresent();
    assertThat(app.messageTypes()).contains(SecurePassMessages.MESSAGE_TYPE, ClientApp.EVALUATE);
    Message reply = app.handle(message(ClientApp.EVALUATE, RecordDict.empty()), CONTEXT);
    assertThat(reply.error()).isEmpty();
  }
}
