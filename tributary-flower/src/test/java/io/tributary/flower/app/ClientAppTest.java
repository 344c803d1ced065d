package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

  static Message withArrays(String type, Tensor t) {
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, type,
        System.currentTimeMillis() / 1000.0), RecordDict.of("arrays",
        io.tributary.flower.records.ArrayRecord.fromTensors(Map.of("w", t))));
  }

  static Stream<Arguments> nonFiniteModels() {
    return Stream.of(
        Arguments.of("train", Tensor.ofFloats(Shape.of(3), 1f, Float.NaN, 2f), "NaN at element 1"),
        Arguments.of("evaluate", Tensor.ofDoubles(Shape.of(2), Double.NEGATIVE_INFINITY, 0),
            "-Inf at element 0"),
        Arguments.of("train.foo", Tensor.ofFloats(Shape.of(2, 2), 0f, 0f, 0f,
            Float.POSITIVE_INFINITY), "+Inf at element 3"));
  }

  @ParameterizedTest
  @MethodSource("nonFiniteModels")
  void handle_nonFiniteModel_errorReplyNamingTheArrayAndTheHandlerNeverRuns(String type, Tensor t,
      String expected) {
    boolean[] ran = {false};
    MessageHandler h = (m, c) -> {
      ran[0] = true;
      return m.reply(RecordDict.empty());
    };
    ClientApp app = ClientApp.builder().on(type, h).build();
    Message reply = app.handle(withArrays(type, t), context());
    assertThat(ran[0]).isFalse();
    assertThat(reply.error().orElseThrow().code())
        .isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
    assertThat(reply.error().orElseThrow().reason()).contains("not finite", "arrays.w", expected);
  }

  @Test
  void handle_nonFiniteQueryOrIntegerModel_reachesTheHandler() {
    ClientApp app = ClientApp.builder().train((m, c) -> m.reply(RecordDict.empty()))
        .query((m, c) -> m.reply(RecordDict.empty())).build();
    assertThat(app.handle(withArrays("query", Tensor.ofFloats(Shape.of(1), Float.NaN)),
        context()).hasContent()).isTrue();
    assertThat(app.handle(withArrays("train", Tensor.ofInts(Shape.of(2), 1, 2)), context())
        .hasContent()).isTrue();
  }

  @Test
  void handle_acceptNonFinite_passesTheModelToTheHandler() {
    ClientApp app = ClientApp.builder().acceptNonFinite()
        .train((m, c) -> m.reply(RecordDict.empty())).build();
    assertThat(app.handle(withArrays("train", Tensor.ofFloats(Shape.of(1), Float.NaN)),
        context()).hasContent()).isTrue();
  }
}
