package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.Scalar;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's instructions in Flower's Message-API form and the replies back, with the keys
 * Flower's strategies and client mods use ({@code server-round}, {@code clipping_norm},
 * {@code num-examples}, {@code norm_bit}).
 */
class MessageApiTest {
  private final MessageApi api = new MessageApi(SerializerRegistry.load());

  private static ServerMessage fitIns(Map<String, Scalar> config) {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(Parameters.newBuilder().setTensorType(Array.NUMPY).addTensors(
            ByteString.copyFrom(Array.fromTensor(Tensor.ofDoubles(Shape.of(2), 1, 2)).data())))
        .putAllConfig(config)).build();
  }

  private static Message reply(Message ins, Map<String, Object> metrics) {
    return ins.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("0",
        Tensor.ofDoubles(Shape.of(2), 3, 4))), "metrics", new MetricRecord(metrics)));
  }

  @Test
  void instruction_fitWithClientDp_trainMessageCarriesServerRoundAndClippingNorm()
      throws Exception {
    Message m = api.instruction(fitIns(Map.of("server_round", Scalar.newBuilder().setSint64(3)
        .build(), "clipping_norm", Scalar.newBuilder().setDouble(0.5).build())), 9, 42, 60);
    assertThat(m.metadata().messageType()).isEqualTo("train");
    assertThat(m.metadata().dstNodeId()).isEqualTo(42);
    assertThat(m.metadata().groupId()).isEqualTo("3");
    ConfigRecord c = (ConfigRecord) m.content().get("config");
    assertThat(c.values()).containsEntry("server-round", 3L).containsEntry("clipping_norm", 0.5)
        .doesNotContainKey("server_round");
    assertThat(((ArrayRecord) m.content().get("arrays")).toTensors().get("0"))
        .isEqualTo(Tensor.ofDoubles(Shape.of(2), 1, 2));
    ServerMessage eval = ServerMessage.newBuilder().setEvaluateIns(ServerMessage.EvaluateIns
        .newBuilder().setParameters(fitIns(Map.of()).getFitIns().getParameters())).build();
    Message e = api.instruction(eval, 9, 42, 60);
    assertThat(e.metadata().messageType()).isEqualTo("evaluate");
    assertThat(((ConfigRecord) e.content().get("config")).values())
        .containsEntry("server-round", 3L);
  }

  @Test
  void answer_trainReplyWithNormBit_fitResCarriesExamplesArraysAndNormBit() throws Exception {
    Message ins = api.instruction(fitIns(Map.of()), 9, 42, 60);
    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", 5L);
    metrics.put("norm_bit", 1L);
    metrics.put("acc", 0.25);
    metrics.put("per-class", java.util.List.of(0.1, 0.2));
    ClientMessage.FitRes r = MessageApi.answer(ServerMessage.MsgCase.FIT_INS,
        reply(ins, metrics)).getFitRes();
    assertThat(r.getNumExamples()).isEqualTo(5);
    assertThat(r.getMetricsMap().get("norm_bit").getSint64()).isEqualTo(1);
    assertThat(r.getMetricsMap().get("acc").getDouble()).isEqualTo(0.25);
    assertThat(r.getMetricsMap()).doesNotContainKeys("num-examples", "per-class");
    assertThat(r.getParameters().getTensorType()).isEqualTo(Array.NUMPY);
  }

  @Test
  void answer_evaluateReplyWithoutLoss_lossIsNaN() throws Exception {
    Message ins = api.instruction(fitIns(Map.of()), 9, 42, 60);
    ClientMessage.EvaluateRes r = MessageApi.answer(ServerMessage.MsgCase.EVALUATE_INS,
        ins.reply(RecordDict.of("metrics", new MetricRecord(Map.of("num-examples", 2L)))))
        .getEvaluateRes();
    assertThat(r.getNumExamples()).isEqualTo(2);
    assertThat(r.getLoss()).isNaN();
  }

  @Test
  void answer_badReplies_refusedNamingWhatIsWrong() throws Exception {
    Message ins = api.instruction(fitIns(Map.of()), 9, 42, 60);
    assertThatThrownBy(() -> MessageApi.answer(ServerMessage.MsgCase.FIT_INS,
        reply(ins, Map.of("num-examples", -1L)))).isInstanceOf(MessageApi.BadReply.class)
        .hasMessageContaining("not a non-negative integer");
    assertThatThrownBy(() -> MessageApi.answer(ServerMessage.MsgCase.FIT_INS,
        reply(ins, Map.of("loss", 1.0)))).hasMessageContaining("no 'num-examples'");
    assertThatThrownBy(() -> MessageApi.answer(ServerMessage.MsgCase.FIT_INS,
        ins.replyError(new MessageError(2, "boom")))).hasMessageContaining("error 2: boom");
    assertThatThrownBy(() -> MessageApi.answer(ServerMessage.MsgCase.FIT_INS,
        ins.reply(RecordDict.of("metrics", new MetricRecord(Map.of("num-examples", 1L))))))
        .hasMessageContaining("no 'arrays'");
    Message notNumpy = ins.reply(RecordDict.of("arrays", new ArrayRecord(Map.of("0",
        new Array("float32", new int[] {1}, "torch.tensor", new byte[4]))), "metrics",
        new MetricRecord(Map.of("num-examples", 1L))));
    assertThatThrownBy(() -> MessageApi.answer(ServerMessage.MsgCase.FIT_INS, notNumpy))
        .hasMessageContaining("stype 'torch.tensor'");
  }
}
