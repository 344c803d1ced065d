package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link DualLayoutClientApp}: each message answered in its own layout, only DefaultWorkflow
 * messages (SecAgg+'s stage messages among them) passing through the DefaultWorkflow mods.
 */
class DualLayoutClientAppTest {
  static final Context CTX = LegacyClientAppTest.CTX;
  final List<String> modSaw = new CopyOnWriteArrayList<>();

  ClientApp app() {
    return DualLayoutClientApp.of(new LegacyClientAppTest.PlusK(), List.of(), List.of(),
        (m, c, next) -> {
          modSaw.add(m.metadata().messageType() + " " + m.content().records().keySet());
          return next.handle(m, c);
        });
  }

  @Test
  void handle_messageApiTrain_repliesArraysAndMetricsWithoutTheMods() throws Exception {
    LinkedHashMap<String, Record> in = new LinkedHashMap<>();
    in.put("arrays", ArrayRecord.fromTensors(Map.of("w", Tensor.ofFloats(Shape.of(2), 1, 2))));
    in.put("config", new ConfigRecord(Map.of("k", 0.5)));

    Message reply = app().handle(LegacyClientAppTest.message("train", in), CTX);

    assertThat(reply.hasContent()).as("%s", reply.error()).isTrue();
    assertThat(reply.content().records().keySet()).contains("arrays", "metrics");
    assertThat(((ArrayRecord) reply.content().get("arrays")).toTensors().get("w").getFloat(1))
        .isEqualTo(2.5f);
    assertThat(modSaw).isEmpty();
  }

  @Test
  void handle_defaultWorkflowTrainAndGetParameters_compatRepliesThroughTheMods()
      throws Exception {
    LinkedHashMap<String, Record> in = new LinkedHashMap<>();
    in.put("fitins.parameters", LegacyClientAppTest.compat(Tensor.ofFloats(Shape.of(1), 1)));
    in.put("fitins.config", new ConfigRecord(Map.of("k", 0.5)));
    ClientApp app = app();

    Message fit = app.handle(LegacyClientAppTest.message("train", in), CTX);
    Message params = app.handle(LegacyClientAppTest.message("get_parameters",
        Map.of("getparametersins.config", new ConfigRecord(Map.of()))), CTX);

    assertThat(fit.content().records().keySet()).contains("fitres.parameters", "fitres.status");
    assertThat(params.content().records().keySet()).contains("getparametersres.parameters");
    assertThat(modSaw).hasSize(2);
  }

  @Test
  void isDefaultWorkflow_secAggStageMessage_true() {
    Message stage = LegacyClientAppTest.message("train", Map.of("secaggplus_configs",
        new ConfigRecord(Map.of("stage", "setup"))));
    Message plain = LegacyClientAppTest.message("train", Map.of("arrays",
        new ArrayRecord(Map.of()), "config", new ConfigRecord(Map.of())));
    Message query = Message.ofContent(plain.metadata(), RecordDict.empty());

    assertThat(DualLayoutClientApp.isDefaultWorkflow(stage)).isTrue();
    assertThat(DualLayoutClientApp.isDefaultWorkflow(plain)).isFalse();
    assertThat(DualLayoutClientApp.isDefaultWorkflow(query)).isFalse();
  }
}
