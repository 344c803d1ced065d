package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.NodeCapabilities;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.passes.ClientPasses;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The capability query on its way through the Fleet layer: the server's GetPropertiesIns becomes
 * a query message, an app with capabilities answers it before its handlers, and the answer
 * reads back as the properties, in both of the server's layouts.
 */
class CapabilityQueryTest {
  private static final Context CONTEXT = new Context(5, 9, Map.of(), Map.of(),
      RecordDict.empty());
  private static final ServerMessage QUERY = ServerMessage.newBuilder().setGetPropertiesIns(
      ServerMessage.GetPropertiesIns.newBuilder().putAllConfig(
          ScalarCodec.toProto(ClientPasses.query()))).build();

  private static ClientApp appCountingQueries(AtomicInteger queries) {
    return ClientApp.builder().query((m, c) -> {
      queries.incrementAndGet();
      return m.reply(RecordDict.of("properties", new ConfigRecord(Map.of("other", 1L))));
    }).build();
  }

  private static Map<String, Scalar> answered(boolean defaultWorkflow, ClientApp app)
      throws Exception {
    MessageApi api = new MessageApi(SerializerRegistry.load(), defaultWorkflow);
    Message m = api.instruction(QUERY, 5, 9, 60);
    ClientMessage answer = api.reply(ServerMessage.MsgCase.GET_PROPERTIES_INS,
        app.handle(m, CONTEXT));
    return ScalarCodec.fromProto(answer.getGetPropertiesRes().getPropertiesMap());
  }

  @Test
  void query_appWithCapabilities_answersBeforeItsHandlerInBothLayouts() throws Exception {
    AtomicInteger queries = new AtomicInteger();
    ClientApp app = appCountingQueries(queries).withCapabilities(ClientPasses.capabilities());

    for (boolean defaultWorkflow : new boolean[] {false, true}) {
      Map<String, Scalar> properties = answered(defaultWorkflow, app);

      assertThat(properties).containsEntry(ClientPasses.CLIENT_PASSES, Scalar.of(1L));
      assertThat(ClientPasses.read(properties)).isInstanceOf(ClientPasses.Support.Capable.class);
    }
    assertThat(queries).hasValue(0);
  }

  @Test
  void query_appWithoutCapabilities_itsHandlerAnswersAndStatesNone() throws Exception {
    AtomicInteger queries = new AtomicInteger();

    Map<String, Scalar> properties = answered(false, appCountingQueries(queries));

    assertThat(queries).hasValue(1);
    assertThat(ClientPasses.read(properties)).isEqualTo(
        new ClientPasses.Support.NotCapable("states no tributary.client_passes"));
  }

  @Test
  void query_appWithNoQueryHandler_errorReplyIsRefused() {
    ClientApp app = ClientApp.builder().train((m, c) -> m.reply(RecordDict.empty())).build();

    assertThatThrownBy(() -> answered(false, app)).isInstanceOf(MessageApi.BadReply.class)
        .hasMessageContaining("no handler for message type 'query'");
  }

  @Test
  void otherQuery_appWithCapabilities_goesToItsHandler() throws Exception {
    AtomicInteger queries = new AtomicInteger();
    ClientApp app = appCountingQueries(queries).withCapabilities(ClientPasses.capabilities());
    Message parameters = new MessageApi(SerializerRegistry.load()).instruction(
        ServerMessage.newBuilder().setGetParametersIns(
            ServerMessage.GetParametersIns.getDefaultInstance()).build(), 5, 9, 60);

    app.handle(parameters, CONTEXT);

    assertThat(queries).hasValue(1);
    assertThat(NodeCapabilities.isQuery(parameters)).isFalse();
  }

  @Test
  void read_otherVersionOrType_notCapableWithWhy() {
    assertThat(ClientPasses.read(Map.of(ClientPasses.CLIENT_PASSES, 2L))).isEqualTo(
        new ClientPasses.Support.NotCapable("speaks client-pass protocol version 2, the "
            + "server 1"));
    assertThat(ClientPasses.read(Map.of(ClientPasses.CLIENT_PASSES, "1"))).isEqualTo(
        new ClientPasses.Support.NotCapable("tributary.client_passes is not an integer"));
  }
}
