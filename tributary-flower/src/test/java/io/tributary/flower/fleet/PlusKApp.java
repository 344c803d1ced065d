package io.tributary.flower.fleet;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The deterministic test ClientApp, the Java twin of {@code fedapp/client_app.py}: {@code train}
 * returns every array + k and {@code num-examples} k, {@code evaluate} reports k, where k is the
 * node config's {@code k}. It records what it reported.
 */
final class PlusKApp {
  /** One train reply: the round (server-round), the arrays sent back, the examples claimed. */
  record Report(String round, long node, Map<String, Tensor> arrays, long numExamples) {}

  final List<Report> reports = new CopyOnWriteArrayList<>();
  final List<String> evaluated = new CopyOnWriteArrayList<>();
  /** For the "big" model: whether each received copy was exactly the ServerApp's. */
  final List<Boolean> bigIntact = new CopyOnWriteArrayList<>();

  ClientApp app() {
    return ClientApp.builder().train(this::train).evaluate(this::evaluate).build();
  }

  /** FedAvg sends the round as {@code server-round} in the "config" ConfigRecord. */
  private static String round(Message m) {
    return String.valueOf(((io.tributary.flower.records.ConfigRecord) m.content().get("config"))
        .get("server-round"));
  }

  private static long k(Context ctx) {
    return ((Number) ctx.nodeConfig().get("k")).longValue();
  }

  private Message train(Message m, Context ctx) throws Exception {
    long k = k(ctx);
    ArrayRecord in = (ArrayRecord) m.content().get("arrays");
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : in.toTensors().entrySet()) {
      if (e.getKey().equals("big")) {
        bigIntact.add(isBig(e.getValue(), Long.parseLong(round(m))));
      }
      out.put(e.getKey(), plus(e.getValue(), k));
    }
    reports.add(new Report(round(m), ctx.nodeId(), out.containsKey("big") ? Map.of() : out, k));
    LinkedHashMap<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", k);
    metrics.put("train_loss", (double) k);
    return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(out), "metrics",
        new MetricRecord(metrics)));
  }

  private Message evaluate(Message m, Context ctx) {
    long k = k(ctx);
    evaluated.add(round(m));
    LinkedHashMap<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", k);
    metrics.put("eval_loss", (double) k);
    return m.reply(RecordDict.of("metrics", new MetricRecord(metrics)));
  }

  /** The ServerApp's big model in round r: i % 1000 + 2.5 (r - 1), float32, exactly. */
  static boolean isBig(Tensor t, long round) {
    if (t.dtype() != DType.FLOAT32) {
      return false;
    }
    float add = (float) (2.5 * (round - 1));
    for (long i = 0; i < t.size(); i++) {
      if (t.getFloat(i) != (float) (i % 1000) + add) {
        return false;
      }
    }
    return true;
  }

  static Tensor plus(Tensor t, double k) {
    TensorBuilder b = TensorBuilder.allocate(t.dtype(), t.shape());
    for (long i = 0; i < t.size(); i++) {
      if (t.dtype() == DType.FLOAT32) {
        b.setFloat(i, t.getFloat(i) + (float) k);
      } else {
        b.setDouble(i, t.getDouble(i) + k);
      }
    }
    return b.build();
  }
}
