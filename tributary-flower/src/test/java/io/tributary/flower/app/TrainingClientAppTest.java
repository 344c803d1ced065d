package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.FlowerClient;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
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
}
