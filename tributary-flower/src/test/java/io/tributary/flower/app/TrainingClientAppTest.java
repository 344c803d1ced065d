package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The app's handling of messages it cannot use. (A graph-backed client under Flower's
 * Message-API keys: {@code TrainingClientAppTest} in tributary-flower-training.)
 */
class TrainingClientAppTest {
  @Test
  void train_noArrayRecord_errorReply() {
    ClientApp app = TrainingClientApp.of(new FlowerClient() {});
    Metadata md = new Metadata(3, "m1", 0, 7, "", "", 3600, "train", 0);
    Message reply = app.handle(Message.ofContent(md, RecordDict.empty()),
        new Context(3, 7, Map.of(), Map.of(), RecordDict.empty()));
    assertThat(reply.error().orElseThrow().reason()).contains("ArrayRecord");
  }

  /** A client that reports loss 0.5 and accuracy 0.75 on 10 examples. */
  static final FlowerClient FIXED = new FlowerClient() {
    @Override
    public FitRes fit(FitIns ins) {
      return new FitRes(ins.parameters(), 10, Map.of("loss", Scalar.of(0.5),
          "accuracy", Scalar.of(0.75)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.25f, 10, Map.of("accuracy", Scalar.of(0.75)));
    }
  };

  static Message message(String type) {
    Metadata md = new Metadata(3, "m1", 0, 7, "", "", 3600, type, 0);
    return Message.ofContent(md, RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of("w",
        Tensor.ofFloats(Shape.of(2), 1, 2)))));
  }

  static Map<String, Object> metrics(Message reply) {
    assertThat(reply.error()).isEmpty();
    return ((MetricRecord) reply.content().get("metrics")).values();
  }

  static final Context CTX = new Context(3, 7, Map.of(), Map.of(), RecordDict.empty());

  @Test
  void handle_defaultKeys_numExamplesLossesAndTheClientsMetrics() {
    ClientApp app = TrainingClientApp.of(FIXED);
    assertThat(metrics(app.handle(message("train"), CTX))).containsOnlyKeys("num-examples",
        "train_loss", "accuracy");
    assertThat(metrics(app.handle(message("evaluate"), CTX))).containsOnlyKeys("num-examples",
        "eval_loss", "accuracy");
  }

  @Test
  void handle_namedKeys_exactlyThoseKeysFromTheirSources() {
    ClientApp app = TrainingClientApp.of(FIXED,
        MetricKey.parseAll(List.of("num-examples", "random_metric=loss")),
        MetricKey.parseAll(List.of("num-examples", "random_metric=[loss, accuracy, loss]")));
    assertThat(metrics(app.handle(message("train"), CTX)))
        .isEqualTo(Map.of("num-examples", 10L, "random_metric", 0.5));
    assertThat(metrics(app.handle(message("evaluate"), CTX)))
        .isEqualTo(Map.of("num-examples", 10L, "random_metric", List.of(0.25, 0.75, 0.25)));
  }

  @Test
  void handle_keyWithoutSource_errorReplyNamingIt() {
    ClientApp app = TrainingClientApp.of(FIXED, MetricKey.parseAll(List.of("f1")), List.of());
    Message reply = app.handle(message("train"), CTX);
    assertThat(reply.error().orElseThrow().reason()).contains("metric 'f1'", "no source 'f1'");
  }

  @Test
  void parse_badSpecs_refusedNamingTheProblem() {
    assertThatThrownBy(() -> MetricKey.parse("m=[a,b")).hasMessageContaining("ends with ']'");
    assertThatThrownBy(() -> MetricKey.parse("=x")).hasMessageContaining("blank");
    assertThatThrownBy(() -> MetricKey.parse("m=[a,,b]")).hasMessageContaining("blank source");
    assertThatThrownBy(() -> MetricKey.parseAll(List.of("a", "a=b")))
        .hasMessageContaining("given twice");
  }
}
