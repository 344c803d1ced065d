package io.tributary.flower.fleet.server;

import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;
import java.util.function.UnaryOperator;

/**
 * A test node's ClientApp that adds k to every element of the model it is sent, claims a fixed
 * example count and loss, and evaluates to loss 0.5; it can fail in a given round (as an app
 * whose disk is full), run a hook before training and answer the server's query for the initial
 * model.
 */
public final class PlusK {
  private final double k;
  private long examples = 1;
  private long evaluateExamples = 1;
  private double loss;
  private long failIn;
  private UnaryOperator<Message> beforeTraining = m -> m;
  private SequencedMap<String, Tensor> initial;

  private PlusK(double k) {
    this.k = k;
    this.loss = Math.abs(k);
  }

  /** Adds {@code k}; claims 1 example, loss |k|. */
  public static PlusK adding(double k) {
    return new PlusK(k);
  }

  /** Adds {@code k} and claims k examples (rounded down) in train and evaluate replies. */
  public static PlusK weighted(double k) {
    return new PlusK(k).examples((long) k).evaluateExamples((long) k);
  }

  /** The example count its train replies claim. */
  public PlusK examples(long n) {
    this.examples = n;
    return this;
  }

  /** The example count its evaluate replies claim (default 1). */
  public PlusK evaluateExamples(long n) {
    this.evaluateExamples = n;
    return this;
  }

  /** The loss its train replies claim (default |k|). */
  public PlusK loss(double l) {
    this.loss = l;
    return this;
  }

  /** Training fails in round {@code round} (the config's {@code server-round}); 0: never. */
  public PlusK failInRound(long round) {
    this.failIn = round;
    return this;
  }

  /** {@code hook} sees each train message before training. */
  public PlusK beforeTraining(UnaryOperator<Message> hook) {
    this.beforeTraining = hook;
    return this;
  }

  /** Query messages are answered with {@code model} as {@code arrays}. */
  public PlusK answerQueryWith(SequencedMap<String, Tensor> model) {
    this.initial = new LinkedHashMap<>(model);
    return this;
  }

  public ClientApp build() {
    double add = k;
    long n = examples;
    long evaluated = evaluateExamples;
    double l = loss;
    long failRound = failIn;
    UnaryOperator<Message> hook = beforeTraining;
    ClientApp.Builder b = ClientApp.builder().train((Message m, Context c) -> {
      hook.apply(m);
      ConfigRecord config = m.content().configRecords().get("config");
      Object round = config == null ? null : config.get("server-round");
      if (failRound != 0 && round instanceof Long r && r == failRound) {
        throw new IllegalStateException("disk full in round " + r);
      }
      return m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(added(
          ((ArrayRecord) m.content().get("arrays")).toTensors(), add)), "metrics",
          new MetricRecord(Map.of("num-examples", n, "loss", l))));
    }).evaluate((Message m, Context c) -> m.reply(RecordDict.of("metrics",
        new MetricRecord(Map.of("num-examples", evaluated, "loss", 0.5)))));
    if (initial != null) {
      SequencedMap<String, Tensor> model = initial;
      b.query((m, c) -> m.reply(RecordDict.of("arrays", ArrayRecord.fromTensors(model))));
    }
    return b.build();
  }

  /** Every tensor of {@code in} with {@code k} added to each element. */
  public static Map<String, Tensor> added(Map<String, Tensor> in, double k) {
    Map<String, Tensor> out = new LinkedHashMap<>();
    for (var e : in.entrySet()) {
      Tensor t = e.getValue();
      double[] v = new double[(int) t.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = t.getAsDouble(i) + k;
      }
      out.put(e.getKey(), Tensor.ofDoubles(t.shape(), v));
    }
    return out;
  }
}
