package io.tributary.flower.app.mod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Flower's client-side clipping mods: the update (reply minus received model) clipped to
 * {@code clipping_norm} over all arrays, {@code norm_bit} for the adaptive one, a
 * {@code MOD_FAILED_PRECONDITION} error for a message without the norm, other types untouched.
 */
class ClippingModTest {
  static final Context CTX = new Context(5, 9, Map.of(), Map.of(), RecordDict.empty());
  final List<String> handled = new CopyOnWriteArrayList<>();

  static Message message(String type, Map<String, Object> config) {
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, type, 1.0),
        RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of(
            "w", Tensor.ofFloats(Shape.of(2), 1, 1), "b", Tensor.ofDoubles(Shape.of(2), 0, 0))),
            "config", new ConfigRecord(config)));
  }

  /** Moves w by (3, 0) and b by (0, 4): an update of norm 5. */
  ClientApp app(io.tributary.flower.app.Mod mod) {
    return ClientApp.builder().mod(mod).train((m, c) -> {
      handled.add("train");
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(Map.of(
          "w", Tensor.ofFloats(Shape.of(2), 4, 1), "b", Tensor.ofDoubles(Shape.of(2), 0, 4))),
          "metrics", new MetricRecord(Map.of("num-examples", 3L))));
    }).evaluate((m, c) -> {
      handled.add("evaluate");
      return m.reply(RecordDict.of("metrics", new MetricRecord(Map.of("num-examples", 3L))));
    }).build();
  }

  static Map<String, Tensor> arrays(Message reply) throws Exception {
    return ((ArrayRecord) reply.content().get("arrays")).toTensors();
  }

  @Test
  void fixedClipping_updateAboveTheNorm_scaledToItOverAllArrays() throws Exception {
    Message reply = app(new FixedClippingMod()).handle(message("train",
        Map.of("clipping_norm", 1.0)), CTX);

    Map<String, Tensor> a = arrays(reply);
    assertThat(a.get("w").getFloat(0)).isCloseTo(1.6f, within(1e-6f));
    assertThat(a.get("w").getFloat(1)).isEqualTo(1f);
    assertThat(a.get("b").getDouble(1)).isCloseTo(0.8, within(1e-12));
    assertThat(a.keySet()).containsExactlyElementsOf(((ArrayRecord) message("train", Map.of())
        .content().get("arrays")).arrays().keySet());
    assertThat(reply.content().get("metrics")).isEqualTo(new MetricRecord(
        Map.of("num-examples", 3L)));
  }

  @Test
  void fixedClipping_updateWithinTheNorm_unchanged() throws Exception {
    Message reply = app(new FixedClippingMod()).handle(message("train",
        Map.of("clipping_norm", 10L)), CTX);

    assertThat(arrays(reply).get("w").getFloat(0)).isEqualTo(4f);
    assertThat(arrays(reply).get("b").getDouble(1)).isEqualTo(4.0);
  }

  @Test
  void adaptiveClipping_normBitSaysWhetherTheUpdateWasScaled() throws Exception {
    Message clipped = app(new AdaptiveClippingMod()).handle(message("train",
        Map.of("clipping_norm", 2.5)), CTX);
    Message kept = app(new AdaptiveClippingMod()).handle(message("train",
        Map.of("clipping_norm", 5.5)), CTX);

    assertThat(((MetricRecord) clipped.content().get("metrics")).get("norm_bit")).isEqualTo(1L);
    assertThat(arrays(clipped).get("w").getFloat(0)).isCloseTo(2.5f, within(1e-6f));
    assertThat(((MetricRecord) kept.content().get("metrics")).get("norm_bit")).isEqualTo(0L);
    assertThat(((MetricRecord) kept.content().get("metrics")).get("num-examples")).isEqualTo(3L);
  }

  @Test
  void clipping_noClippingNorm_modFailedPreconditionWithoutRunningTheApp() {
    for (io.tributary.flower.app.Mod mod : List.of(new FixedClippingMod(),
        new AdaptiveClippingMod())) {
      Message reply = app(mod).handle(message("train", Map.of("lr", 0.1)), CTX);

      assertThat(reply.hasContent()).isFalse();
      assertThat(reply.error().orElseThrow().code())
          .isEqualTo(MessageError.MOD_FAILED_PRECONDITION);
      assertThat(reply.error().orElseThrow().reason()).contains("clipping_norm");
      assertThat(reply.metadata().replyToMessageId()).isEqualTo("abc");
    }
    assertThat(handled).isEmpty();
  }

  @Test
  void clipping_evaluateMessage_passesThrough() {
    Message reply = app(new FixedClippingMod()).handle(message("evaluate", Map.of()), CTX);

    assertThat(reply.hasContent()).isTrue();
    assertThat(handled).containsExactly("evaluate");
  }

  @Test
  void mods_severalMods_runInTheOrderAddedFirstOutermost() {
    List<String> order = new CopyOnWriteArrayList<>();
    ClientApp app = ClientApp.builder()
        .mod((m, c, next) -> {
          order.add("a-in");
          Message r = next.handle(m, c);
          order.add("a-out");
          return r;
        })
        .mod((m, c, next) -> {
          order.add("b-in");
          Message r = next.handle(m, c);
          order.add("b-out");
          return r;
        })
        .train((m, c) -> {
          order.add("app");
          throw new IllegalStateException("boom");
        }).build();

    Message reply = app.handle(message("train", Map.of()), CTX);

    assertThat(order).containsExactly("a-in", "b-in", "app", "b-out", "a-out");
    assertThat(reply.error().orElseThrow().reason()).contains("boom");
  }

  /** A DefaultWorkflow train message: compat arrays, {@code fitins.config}, and another config. */
  static Message legacyMessage(double norm) throws Exception {
    java.util.LinkedHashMap<String, io.tributary.flower.records.Array> arrays =
        new java.util.LinkedHashMap<>();
    arrays.put("0", compat(Tensor.ofFloats(Shape.of(2), 1, 1)));
    arrays.put("1", compat(Tensor.ofDoubles(Shape.of(2), 0, 0)));
    java.util.LinkedHashMap<String, io.tributary.flower.records.Record> content =
        new java.util.LinkedHashMap<>();
    content.put("fitins.parameters", new ArrayRecord(arrays));
    content.put("fitins.config", new ConfigRecord(Map.of("clipping_norm", norm)));
    content.put("secaggplus_configs", new ConfigRecord(Map.of("stage", "other")));
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, "train", 1.0),
        new RecordDict(content));
  }

  static io.tributary.flower.records.Array compat(Tensor t) throws Exception {
    return new io.tributary.flower.records.Array("", new int[0],
        io.tributary.flower.records.Array.NUMPY, io.tributary.tensor.npy.Npy.toBytes(t));
  }

  /** A FlowerClient moving the first array by (3, 0) and the second by (0, 4), in float32. */
  static ClientApp legacyApp(io.tributary.flower.app.Mod mod) {
    io.tributary.flower.FlowerClient client = new io.tributary.flower.FlowerClient() {
      @Override
      public io.tributary.flower.FitRes fit(io.tributary.flower.FitIns ins) {
        return new io.tributary.flower.FitRes(List.of(Tensor.ofFloats(Shape.of(2), 4, 1),
            Tensor.ofFloats(Shape.of(2), 0, 4)), 3, Map.of());
      }
    };
    return io.tributary.flower.app.LegacyClientApp.of(client).withMods(mod);
  }

  static List<Tensor> fitresParameters(Message reply) throws Exception {
    assertThat(reply.hasContent()).as(String.valueOf(reply.error())).isTrue();
    return ((ArrayRecord) reply.content().get("fitres.parameters")).arrays().values().stream()
        .map(a -> {
          try {
            return io.tributary.tensor.npy.Npy.fromBytes(a.data());
          } catch (io.tributary.tensor.npy.NpyException e) {
            throw new AssertionError(e);
          }
        }).toList();
  }

  @Test
  void fixedClipping_defaultWorkflowLayout_clipsFitresParametersWideningToTheReceivedDtype()
      throws Exception {
    Message reply = legacyApp(new FixedClippingMod()).handle(legacyMessage(1.0), CTX);

    List<Tensor> p = fitresParameters(reply);
    assertThat(p.get(0).dtype()).isEqualTo(io.tributary.tensor.DType.FLOAT32);
    assertThat(p.get(0).getFloat(0)).isCloseTo(1.6f, within(1e-6f));
    assertThat(p.get(0).getFloat(1)).isEqualTo(1f);
    assertThat(p.get(1).dtype()).isEqualTo(io.tributary.tensor.DType.FLOAT64);
    assertThat(p.get(1).getDouble(1)).isCloseTo(0.8, within(1e-6));
    assertThat(((ConfigRecord) reply.content().get("fitres.status")).get("code")).isEqualTo(0L);
  }

  @Test
  void adaptiveClipping_defaultWorkflowLayout_normBitInFitresMetrics() throws Exception {
    Message clipped = legacyApp(new AdaptiveClippingMod()).handle(legacyMessage(1.0), CTX);
    Message kept = legacyApp(new AdaptiveClippingMod()).handle(legacyMessage(10.0), CTX);

    assertThat(((ConfigRecord) clipped.content().get("fitres.metrics")).get("norm_bit"))
        .isEqualTo(true);
    assertThat(((ConfigRecord) kept.content().get("fitres.metrics")).get("norm_bit"))
        .isEqualTo(false);
    assertThat(fitresParameters(kept).get(1).getDouble(1)).isEqualTo(4.0);
  }

  @Test
  void fixedClipping_defaultWorkflowLayoutWithoutTheNorm_modFailedPrecondition()
      throws Exception {
    Message m = legacyMessage(1.0);
    java.util.LinkedHashMap<String, io.tributary.flower.records.Record> content =
        new java.util.LinkedHashMap<>(m.content().records());
    content.put("fitins.config", new ConfigRecord(Map.of()));
    Message reply = legacyApp(new FixedClippingMod()).handle(Message.ofContent(m.metadata(),
        new RecordDict(content)), CTX);

    assertThat(reply.hasContent()).isFalse();
    assertThat(reply.error().orElseThrow().code())
        .isEqualTo(MessageError.MOD_FAILED_PRECONDITION);
    assertThat(reply.error().orElseThrow().reason()).contains("fitins.config");
  }
}
