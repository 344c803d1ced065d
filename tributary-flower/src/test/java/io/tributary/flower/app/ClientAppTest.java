package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientAppTest {
  static Message message(String type) {
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, type,
        System.currentTimeMillis() / 1000.0), RecordDict.empty());
  }

  static Context context() {
    return new Context(5, 9, Map.of(), Map.of(), RecordDict.empty());
  }

  @Test
  void handle_customTrainAction_runsItsHandlerAndRepliesToTheMessage() {
    ClientApp app = ClientApp.builder().train("foo", (m, c) -> m.reply(RecordDict.of("metrics",
        new MetricRecord(Map.of("x", 1L))))).build();
    Message reply = app.handle(message("train.foo"), context());
    assertThat(reply.hasContent()).isTrue();
    assertThat(reply.metadata().replyToMessageId()).isEqualTo("abc");
    assertThat(reply.metadata().dstNodeId()).isEqualTo(1);
    assertThat(reply.metadata().srcNodeId()).isEqualTo(9);
    assertThat(reply.metadata().messageType()).isEqualTo("train.foo");
  }

  @Test
  void handle_unhandledType_errorReplyNamingIt() {
    ClientApp app = ClientApp.builder().train((m, c) -> m.reply(RecordDict.empty())).build();
    Message reply = app.handle(message("query"), context());
    assertThat(reply.error()).get().extracting(MessageError::code)
        .isEqualTo(MessageError.LOAD_CLIENT_APP_EXCEPTION);
    assertThat(reply.error().orElseThrow().reason()).contains("'query'");
  }

  @Test
  void handle_handlerThrows_errorReplyAndTheAppKeepsServing() {
    ClientApp app = ClientApp.builder().evaluate((m, c) -> {
      throw new IllegalStateException("boom");
    }).query((m, c) -> m.reply(RecordDict.empty())).build();
    Message reply = app.handle(message("evaluate"), context());
    assertThat(reply.error().orElseThrow().code())
        .isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
    assertThat(reply.error().orElseThrow().reason()).contains("boom");
    assertThat(app.handle(message("query"), context()).hasContent()).isTrue();
  }

  @Test
  void handle_handlerReturnsANonReply_errorReply() {
    ClientApp app = ClientApp.builder().train((m, c) -> message("train")).build();
    assertThat(app.handle(message("train"), context()).error()).isPresent();
  }
}
