package io.tributary.flower.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.TrainTestSplit;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.TrainingClientApp;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The graph-backed client under Flower's Message-API keys: what FedAvg sends ("arrays",
 * "config" with server-round and lr) in, what FedAvg reads ("arrays", "metrics" with
 * num-examples) out.
 */
class TrainingClientAppTest {
  static Message fedAvgMessage(String type, Map<String, Tensor> model, Map<String, ?> config) {
    Metadata md = new Metadata(3, "m1", 0, 7, "", "", 3600, type,
        System.currentTimeMillis() / 1000.0);
    return Message.ofContent(md, RecordDict.of("arrays", ArrayRecord.fromTensors(model),
        "config", new ConfigRecord(config)));
  }

  @Test
  void trainThenEvaluate_fedAvgKeys_trainsAndRepliesWhatFedAvgReads() throws Exception {
    TrainTestSplit split = Digits.load(0.2, 1);
    Dataset train = split.train();
    TrainingClient client = new TrainingClient(
        Models.softmaxRegression("mclr", 64, 10, DType.FLOAT32), train, split.test(),
        new TrainingSettings(1, 16, 0.05, 0, 3));
    List<Tensor> initial = client.getParameters(Map.of());
    Map<String, Tensor> model = new LinkedHashMap<>();
    for (int i = 0; i < initial.size(); i++) {
      model.put("layer." + i, initial.get(i));
    }
    ClientApp app = TrainingClientApp.of(client);
    Context ctx = new Context(3, 7, Map.of(), Map.of(), RecordDict.empty());

    Message reply = app.handle(fedAvgMessage("train", model,
        Map.of("server-round", 1L, "lr", 0.1, "local_epochs", 2L)), ctx);

    assertThat(reply.error()).isEmpty();
    ArrayRecord arrays = (ArrayRecord) reply.content().get("arrays");
    assertThat(arrays.arrays().sequencedKeySet()).containsExactlyElementsOf(model.keySet());
    MetricRecord metrics = (MetricRecord) reply.content().get("metrics");
    assertThat(metrics.get("num-examples")).isEqualTo((long) train.size());
    assertThat(metrics.values()).containsKey("train_loss");
    assertThat(arrays.toTensors().get("layer.0")).isNotEqualTo(model.get("layer.0"));

    Message eval = app.handle(fedAvgMessage("evaluate", arrays.toTensors(),
        Map.of("server-round", 1L)), ctx);
    MetricRecord em = (MetricRecord) eval.content().get("metrics");
    assertThat(em.get("num-examples")).isEqualTo((long) split.test().size());
    assertThat((Double) em.get("accuracy")).isGreaterThan(0.5);
    assertThat(em.values()).containsKey("eval_loss");
  }
}
