package io.tributary.flower.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link LegacyClientApp} on messages laid out as Flower's DefaultWorkflow writes them
 * ({@code recorddict_compat}: {@code fitins.parameters} with keys "0", "1"..., empty dtype and
 * shape, NPY data), answered in the {@code fitres.*}/{@code evaluateres.*} layout.
 */
class LegacyClientAppTest {
  static final Context CTX = new Context(5, 9, Map.of(), Map.of(), RecordDict.empty());

  /** Adds the config's "k" to every parameter; claims 3 examples. */
  static final class PlusK implements FlowerClient {
    Map<String, Scalar> lastConfig;

    @Override
    public List<Tensor> getParameters(Map<String, Scalar> config) {
      return List.of(Tensor.ofFloats(Shape.of(2), 1, 2));
    }

    @Override
    public FitRes fit(FitIns ins) {
      lastConfig = ins.config();
      double k = ((Scalar.Double) ins.config().get("k")).value();
      return new FitRes(ins.parameters().stream().map(t -> {
        float[] v = new float[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = t.getFloat(i) + (float) k;
        }
        return Tensor.ofFloats(t.shape(), v);
      }).toList(), 3, Map.of("acc", Scalar.of(0.5)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.25f, 4, Map.of());
    }
  }

  static Message message(String type, Map<String, Record> content) {
    return Message.ofContent(new Metadata(5, "abc", 1, 9, "", "", 60, type, 1.0),
        new RecordDict(content));
  }

  static ArrayRecord compat(Tensor... tensors) throws Exception {
    LinkedHashMap<String, Array> m = new LinkedHashMap<>();
    for (int i = 0; i < tensors.length; i++) {
      m.put(Integer.toString(i), new Array("", new int[0], Array.NUMPY,
          Npy.toBytes(tensors[i])));
    }
    return new ArrayRecord(m);
  }

  @Test
  void train_fitinsLayout_repliesTheFitresLayoutWithTheTrainedTensors() throws Exception {
    PlusK client = new PlusK();
    LinkedHashMap<String, Record> in = new LinkedHashMap<>();
    in.put("fitins.parameters", compat(Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4),
        Tensor.ofFloats(Shape.of(1), 9)));
    in.put("fitins.config", new ConfigRecord(Map.of("k", 0.5)));

    Message reply = LegacyClientApp.of(client).handle(message("train", in), CTX);

    assertThat(reply.hasContent()).as("%s", reply.error()).isTrue();
    RecordDict out = reply.content();
    assertThat(out.records().keySet()).containsExactly("fitres.metrics", "fitres.num_examples",
        "fitres.parameters", "fitres.status");
    ArrayRecord params = (ArrayRecord) out.get("fitres.parameters");
    assertThat(params.arrays().keySet()).containsExactly("0", "1");
    Array first = params.arrays().get("0");
    assertThat(first.dtype()).isEmpty();
    assertThat(first.shape()).isEmpty();
    Tensor t = Npy.fromBytes(first.data());
    assertThat(t.shape()).isEqualTo(Shape.of(2, 2));
    assertThat(t.getFloat(3)).isEqualTo(4.5f);
    assertThat(((MetricRecord) out.get("fitres.num_examples")).get("num_examples"))
        .isEqualTo(3L);
    assertThat(((ConfigRecord) out.get("fitres.metrics")).get("acc")).isEqualTo(0.5);
    assertThat(((ConfigRecord) out.get("fitres.status")).values())
        .containsExactly(Map.entry("code", 0L), Map.entry("message", "Success"));
  }

  @Test
  void getParametersAndEvaluate_compatLayouts_answered() throws Exception {
    ClientApp app = LegacyClientApp.of(new PlusK());
    Message params = app.handle(message("get_parameters", Map.of("getparametersins.config",
        new ConfigRecord(Map.of()))), CTX);
    Message eval = app.handle(message("evaluate", Map.of("evaluateins.parameters",
        compat(Tensor.ofFloats(Shape.of(1), 1)), "evaluateins.config",
        new ConfigRecord(Map.of()))), CTX);

    ArrayRecord got = (ArrayRecord) params.content().get("getparametersres.parameters");
    assertThat(got.arrays().keySet()).containsExactly("0");
    assertThat(Npy.fromBytes(got.arrays().get("0").data()).getFloat(1)).isEqualTo(2f);
    assertThat(params.content().get("getparametersres.status")).isNotNull();
    assertThat(((MetricRecord) eval.content().get("evaluateres.loss")).get("loss"))
        .isEqualTo(0.25);
    assertThat(((MetricRecord) eval.content().get("evaluateres.num_examples"))
        .get("num_examples")).isEqualTo(4L);
    assertThat(eval.content().get("evaluateres.status")).isNotNull();
  }

  @Test
  void train_messageWithoutTheCompatRecords_errorReplyNamingIt() {
    Message reply = LegacyClientApp.of(new PlusK()).handle(message("train", Map.of(
        "arrays", new ArrayRecord(Map.of()))), CTX);

    assertThat(reply.error().orElseThrow().code())
        .isEqualTo(MessageError.CLIENT_APP_RAISED_EXCEPTION);
    assertThat(reply.error().orElseThrow().reason()).contains("fitins.parameters");
  }
}
