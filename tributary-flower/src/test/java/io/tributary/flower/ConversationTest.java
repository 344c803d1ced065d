package io.tributary.flower;

import static io.tributary.flower.testing.Messages.evaluate;
import static io.tributary.flower.testing.Messages.fit;
import static io.tributary.flower.testing.Messages.getParameters;
import static io.tributary.flower.testing.Messages.getProperties;
import static io.tributary.flower.testing.Messages.reconnect;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ClientMessage.MsgCase;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.Reason;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.testing.Messages;
import io.tributary.flower.testing.ScriptedServer;
import io.tributary.flower.testing.ScriptedServer.Send;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One stream's conversation: order, one answer per instruction, status codes and content. */
@Timeout(60)
class ConversationTest {
  static final List<Tensor> PARAMS = List.of(Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4),
      Tensor.ofLongs(Shape.of(1), 7));

  /** Doubles every float tensor in fit; loss = number of tensors in evaluate. */
  static final class DoublingClient extends AbstractFlowerClient {
    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return PARAMS;
    }

    @Override
    public FitRes fit(FitIns ins) {
      Tensor t = ins.parameters().get(0);
      float[] v = new float[(int) t.shape().size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = 2 * t.getFloat(i);
      }
      return new FitRes(List.of(Tensor.ofFloats(t.shape(), v), ins.parameters().get(1)), 42,
          Map.of("loss", Scalar.of(0.5)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(ins.parameters().size(), 9, Map.of("accuracy", Scalar.of(0.75)));
    }
  }

  static List<ClientMessage> converse(FlowerClient client, String responseType,
      ServerMessage... script) throws Exception {
    List<ScriptedServer.Step> steps = java.util.Arrays.stream(script)
        .map(m -> (ScriptedServer.Step) new Send(m)).toList();
    try (ScriptedServer server = new ScriptedServer(responseType, List.of(steps)).start()) {
      ManagedChannel channel = server.channel();
      try (FlowerClientRunner runner = FlowerClientRunner.builder(client).channel(channel)
          .build()) {
        assertThat(runner.run()).isEqualTo(FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER);
        assertThat(runner.connections()).isEqualTo(1);
      } finally {
        channel.shutdownNow();
      }
      ScriptedServer.Stream s = server.streams().getFirst();
      assertThat(s.violations()).isEmpty();
      return s.answers();
    }
  }

  @Test
  void run_fullRound_answersEachInstructionOnceInOrder() throws Exception {
    List<ClientMessage> answers = converse(new DoublingClient(), null,
        getProperties(Map.of()), getParameters(), fit(PARAMS, Map.of("epochs", Scalar.of(1L))),
        evaluate(PARAMS, Map.of()), reconnect(0));

    assertThat(Messages.kinds(answers)).containsExactly(MsgCase.GET_PROPERTIES_RES,
        MsgCase.GET_PARAMETERS_RES, MsgCase.FIT_RES, MsgCase.EVALUATE_RES, MsgCase.DISCONNECT_RES);
    assertThat(answers.get(1).getGetParametersRes().getStatus().getCode()).isEqualTo(Code.OK);
    assertThat(Messages.tensors(answers.get(1).getGetParametersRes().getParameters()))
        .isEqualTo(PARAMS);
    ClientMessage.FitRes fitRes = answers.get(2).getFitRes();
    assertThat(fitRes.getNumExamples()).isEqualTo(42);
    assertThat(Messages.tensors(fitRes.getParameters()).getFirst())
        .isEqualTo(Tensor.ofFloats(Shape.of(2, 2), 2, 4, 6, 8));
    assertThat(fitRes.getMetricsMap().get("loss").getDouble()).isEqualTo(0.5);
    ClientMessage.EvaluateRes evalRes = answers.get(3).getEvaluateRes();
    assertThat(evalRes.getLoss()).isEqualTo(2f);
    assertThat(evalRes.getNumExamples()).isEqualTo(9);
    assertThat(evalRes.getMetricsMap().get("accuracy").getDouble()).isEqualTo(0.75);
    assertThat(answers.get(4).getDisconnectRes().getReason()).isEqualTo(Reason.RECONNECT);
  }

  @Test
  void run_clientImplementsNothing_answersNotImplementedCodes() throws Exception {
    List<ClientMessage> answers = converse(new FlowerClient() {}, null, getProperties(Map.of()),
        getParameters(), fit(PARAMS, Map.of()), evaluate(PARAMS, Map.of()), reconnect(0));

    assertThat(answers.get(0).getGetPropertiesRes().getStatus().getCode())
        .isEqualTo(Code.GET_PROPERTIES_NOT_IMPLEMENTED);
    assertThat(answers.get(1).getGetParametersRes().getStatus().getCode())
        .isEqualTo(Code.GET_PARAMETERS_NOT_IMPLEMENTED);
    assertThat(answers.get(2).getFitRes().getStatus().getCode())
        .isEqualTo(Code.FIT_NOT_IMPLEMENTED);
    assertThat(answers.get(3).getEvaluateRes().getStatus().getCode())
        .isEqualTo(Code.EVALUATE_NOT_IMPLEMENTED);
  }

  @Test
  void run_responseHeaderNamesProtoNdarray_sendsProtoNdarray() throws Exception {
    List<ClientMessage> answers = converse(new DoublingClient(), "proto.ndarray",
        getParameters(), reconnect(0));

    var p = answers.getFirst().getGetParametersRes().getParameters();
    assertThat(p.getTensorType()).isEqualTo("proto.ndarray");
    assertThat(p.getValuesCount()).isEqualTo(2);
    assertThat(Messages.tensors(p)).isEqualTo(PARAMS);
  }

  @Test
  void run_noResponseHeader_sendsNumpyNdarray() throws Exception {
    List<ClientMessage> answers = converse(new DoublingClient(), null, getParameters(),
        reconnect(0));

    var p = answers.getFirst().getGetParametersRes().getParameters();
    assertThat(p.getTensorType()).isEqualTo("numpy.ndarray");
    assertThat(p.getTensorsCount()).isEqualTo(2);
  }

  @Test
  void run_serverChoosesUnknownType_fallsBackToNumpy() throws Exception {
    List<ClientMessage> answers = converse(new DoublingClient(), "proto.tftensor",
        getParameters(), reconnect(0));

    assertThat(answers.getFirst().getGetParametersRes().getParameters().getTensorType())
        .isEqualTo("numpy.ndarray");
  }

  @Test
  void run_unknownInstruction_answersDisconnectUnknownAndGoesOn() throws Exception {
    List<ClientMessage> answers = converse(new DoublingClient(), null,
        ServerMessage.getDefaultInstance(), getParameters(), reconnect(0));

    assertThat(answers.get(0).getDisconnectRes().getReason()).isEqualTo(Reason.UNKNOWN);
    assertThat(answers.get(1).getGetParametersRes().getStatus().getCode()).isEqualTo(Code.OK);
  }
}
