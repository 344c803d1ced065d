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
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's instructions and the replies back in Flower's DefaultWorkflow layout, which a
 * Fleet server with SecAgg+ speaks ({@code fitins.*}, {@code evaluateins.*}, {@code fitres.*},
 * {@code evaluateres.*}), as Flower's {@code recorddict_compat} names them.
 */
class DefaultWorkflowLayoutTest {
  private final MessageApi api = new MessageApi(SerializerRegistry.load(), true);

  private static Parameters model() {
    return Parameters.newBuilder().setTensorType(Array.NUMPY).addTensors(ByteString.copyFrom(
        Array.fromTensor(Tensor.ofDoubles(Shape.of(2), 1, 2)).data())).build();
  }

  private static Message evaluateReply(Message ins, long code) {
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    out.put("evaluateres.loss", new MetricRecord(Map.of("loss", 0.25)));
    out.put("evaluateres.num_examples", new MetricRecord(Map.of("num_examples", 7L)));
    out.put("evaluateres.metrics", new ConfigRecord(Map.of("accuracy", 0.5)));
    out.put("evaluateres.status", new ConfigRecord(Map.of("code", code, "message", "m")));
    return ins.reply(new RecordDict(out));
  }

  @Test
  void instruction_evaluate_carriesEvaluateinsRecordsAndTheReplyIsRead() throws Exception {
    ServerMessage eval = ServerMessage.newBuilder().setEvaluateIns(ServerMessage.EvaluateIns
        .newBuilder().setParameters(model()).putConfig("server_round", Scalar.newBuilder()
            .setSint64(2).build())).build();
    Message m = api.instruction(eval, 9, 42, 60);
    assertThat(m.metadata().messageType()).isEqualTo("evaluate");
    assertThat(m.content().records()).containsOnlyKeys("evaluateins.parameters",
        "evaluateins.config");
    assertThat(((ConfigRecord) m.content().get("evaluateins.config")).values())
        .containsEntry("server_round", 2L);
    assertThat(((ArrayRecord) m.content().get("evaluateins.parameters")).toTensors().get("0"))
        .isEqualTo(Tensor.ofDoubles(Shape.of(2), 1, 2));
    ClientMessage.EvaluateRes r = api.reply(ServerMessage.MsgCase.EVALUATE_INS,
        evaluateReply(m, 0)).getEvaluateRes();
    assertThat(r.getLoss()).isEqualTo(0.25f);
    assertThat(r.getNumExamples()).isEqualTo(7);
    assertThat(r.getMetricsMap().get("accuracy").getDouble()).isEqualTo(0.5);
  }

  @Test
  void reply_statusNotOkOrNoExampleCount_refusedNamingWhy() throws Exception {
    ServerMessage fit = ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(model())).build();
    Message m = api.instruction(fit, 9, 42, 60);
    assertThat(m.content().records()).containsOnlyKeys("fitins.parameters", "fitins.config");
    assertThatThrownBy(() -> api.reply(ServerMessage.MsgCase.EVALUATE_INS,
        evaluateReply(m, 3))).isInstanceOf(MessageApi.BadReply.class)
        .hasMessageContaining("status is 3");
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    out.put("fitres.parameters", ArrayRecord.fromTensors(Map.of("0",
        Tensor.ofDoubles(Shape.of(2), 3, 4))));
    out.put("fitres.status", new ConfigRecord(Map.of("code", 0L, "message", "ok")));
    assertThatThrownBy(() -> api.reply(ServerMessage.MsgCase.FIT_INS, m.reply(
        new RecordDict(out)))).isInstanceOf(MessageApi.BadReply.class)
        .hasMessageContaining("fitres.num_examples");
  }
}
