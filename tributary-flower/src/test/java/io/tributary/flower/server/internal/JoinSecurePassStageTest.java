package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.Scalar;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.internal.proto.Status;
import io.tributary.flower.passes.JoinPassLayout;
import io.tributary.flower.passes.SecurePassMessages;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.FakeClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A secure pass's stage to a Join client: sent as a FitIns without parameters carrying the
 * stage's records, the FitRes read back into the reply's records; a FitRes that is no stage's
 * reply fails typed, a non-OK one as the client's failure, another message type at once.
 */
class JoinSecurePassStageTest {
  private static final RecordDict STAGE = RecordDict.of(SecurePassMessages.STAGE_RECORD,
      new ConfigRecord(Map.of("stage", "advertise_keys", "graph_seed", 5L)));

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final ClientManager manager = new ClientManager();
  private Server server;
  private ManagedChannel channel;
  private FakeClient client;

  private ClientProxy join(Function<ServerMessage, Optional<ClientMessage>> behaviour)
      throws Exception {
    String name = InProcessServerBuilder.generateName();
    JoinService join = new JoinService(manager, timer, new Traffic(), Integer.MAX_VALUE,
        new OutboundBudget(OutboundBudget.DEFAULT_BYTES),
        new InboundBudget(InboundBudget.DEFAULT_BYTES));
    server = InProcessServerBuilder.forName(name).addService(ServerInterceptors.intercept(
        FlowerRpc.service(join), new TensorTypeInterceptor(List.of(TensorTypes.DEFAULT)))).build()
        .start();
    channel = InProcessChannelBuilder.forName(name).build();
    client = new FakeClient(channel, new Metadata(), behaviour);
    return (ClientProxy) manager.waitFor(1, Duration.ofSeconds(10)).getFirst();
  }

  @AfterEach
  void stop() throws Exception {
    for (RemoteClient p : manager.all()) {
      p.finish();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    timer.shutdownNow();
  }

  private static ClientMessage fitRes(Status status, Parameters parameters,
      Map<String, Scalar> metrics) {
    return ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
        .setStatus(status).setParameters(parameters).putAllMetrics(metrics)).build();
  }

  private static final Status OK = Status.newBuilder().setCode(Code.OK).build();

  /** Echoes the stage's config entries back as FitRes metrics, the marker left out. */
  private static Optional<ClientMessage> echo(ServerMessage m) {
    Map<String, Scalar> config = new java.util.LinkedHashMap<>(m.getFitIns().getConfigMap());
    config.remove(JoinPassLayout.MESSAGE_TYPE_KEY);
    return Optional.of(fitRes(OK, Parameters.getDefaultInstance(), config));
  }

  @Test
  void message_stage_sentAsAFitInsAndItsFitResReadBack() throws Exception {
    ClientProxy proxy = join(JoinSecurePassStageTest::echo);

    RecordDict reply = proxy.message(SecurePassMessages.MESSAGE_TYPE, STAGE, "1",
        Optional.of(Duration.ofSeconds(5))).get(5, TimeUnit.SECONDS);

    ServerMessage sent = client.received.getLast();
    assertThat(sent.hasFitIns()).isTrue();
    assertThat(sent.getFitIns().getParameters().getTensorsCount()).isZero();
    assertThat(sent.getFitIns().getConfigMap().get(JoinPassLayout.MESSAGE_TYPE_KEY)
        .getString()).isEqualTo(SecurePassMessages.MESSAGE_TYPE);
    assertThat(((ConfigRecord) reply.get(SecurePassMessages.STAGE_RECORD)).values())
        .containsEntry("stage", "advertise_keys").containsEntry("graph_seed", 5L);
  }

  @Test
  void message_fitResWithTensors_failsAsMalformed() throws Exception {
    ClientProxy proxy = join(m -> Optional.of(fitRes(OK, Parameters.newBuilder()
        .addTensors(com.google.protobuf.ByteString.copyFrom(new byte[4])).build(), Map.of())));

    Throwable thrown = catchThrowable(() -> proxy.message(SecurePassMessages.MESSAGE_TYPE,
        STAGE, "1", Optional.of(Duration.ofSeconds(5))).get(5, TimeUnit.SECONDS));

    assertThat(thrown).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(JoinPassLayout.MalformedException.class)
        .hasMessageContaining("carries 1 tensors");
  }

  @Test
  void message_nonOkFitRes_failsAsTheClientsFailure() throws Exception {
    ClientProxy proxy = join(m -> Optional.of(fitRes(Status.newBuilder()
        .setCode(Code.FIT_NOT_IMPLEMENTED).setMessage("error: no pass here").build(),
        Parameters.getDefaultInstance(), Map.of())));

    Throwable thrown = catchThrowable(() -> proxy.message(SecurePassMessages.MESSAGE_TYPE,
        STAGE, "1", Optional.of(Duration.ofSeconds(5))).get(5, TimeUnit.SECONDS));

    assertThat(thrown).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(ClientResultException.class)
        .hasMessageContaining("FIT_NOT_IMPLEMENTED: error: no pass here");
  }

  @Test
  void message_anotherType_failsAtOnceWithoutSending() throws Exception {
    ClientProxy proxy = join(JoinSecurePassStageTest::echo);

    Throwable thrown = catchThrowable(() -> proxy.message("train", STAGE, "1",
        Optional.empty()).get(5, TimeUnit.SECONDS));

    assertThat(thrown).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(ClientResultException.class).hasMessageContaining("'train'");
    assertThat(client.received).noneMatch(ServerMessage::hasFitIns);
  }
}
