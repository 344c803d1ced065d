package io.tributary.flower.app;

import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.Scalar;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.records.RecordException;
import io.tributary.tensor.Tensor;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ready ClientApp that trains and evaluates a {@link FlowerClient} (the graph-backed
 * {@code io.tributary.flower.training.TrainingClient} of tributary-flower-training, typically) as Flower's Message-API strategies
 * ({@code flwr.serverapp.strategy.FedAvg} and friends) expect:
 *
 * <ul>
 *   <li>{@code train}: the model is the message's {@code ArrayRecord} under {@code "arrays"} (or
 *       its only one), in record order; the settings are the {@code ConfigRecord} under
 *       {@code "config"} ({@code server-round}, {@code lr}, {@code local_epochs},
 *       {@code batch_size}, {@code proximal_mu}... as the client reads them). The reply holds
 *       {@code "arrays"}, the trained model under the same names, and {@code "metrics"} with
 *       {@code num-examples} and the client's metrics ({@code loss} as {@code train_loss}).
 *   <li>{@code evaluate}: the same inputs; the reply holds {@code "metrics"} with
 *       {@code num-examples}, {@code eval_loss} and the client's metrics.
 * </ul>
 *
 * <p>Those are the default keys. {@link #of(FlowerClient, List, List)} names the keys instead
 * ({@link MetricKey}), so that Java nodes reply with exactly the keys the Python nodes of a
 * mixed round do: Flower's strategies refuse a round whose replies' metric keys differ.
 *
 * <p>Handlers run one at a time: the client is not thread-safe.
 */
public final class TrainingClientApp {
  public static final String ARRAYS = "arrays";
  public static final String CONFIG = "config";
  public static final String METRICS = "metrics";
  public static final String NUM_EXAMPLES = "num-examples";

  private TrainingClientApp() {}

  /** The app that trains and evaluates {@code client}, replying with the default keys. */
  public static ClientApp of(FlowerClient client) {
    return of(client, List.of(), List.of());
  }

  /**
   * The app that trains and evaluates {@code client}, replying with exactly the metric keys
   * {@code trainKeys} and {@code evaluateKeys}; an empty list keeps that reply's default keys. A
   * key whose source a reply lacks gets a Flower {@code Error} reply naming it.
   */
  public static ClientApp of(FlowerClient client, List<MetricKey> trainKeys,
      List<MetricKey> evaluateKeys) {
    List<MetricKey> tk = List.copyOf(trainKeys);
    List<MetricKey> ek = List.copyOf(evaluateKeys);
    Object lock = new Object();
    return ClientApp.builder()
        .train((m, ctx) -> {
          synchronized (lock) {
            return train(client, m, tk);
          }
        })
        .evaluate((m, ctx) -> {
          synchronized (lock) {
            return evaluate(client, m, ek);
          }
        })
        .build();
  }

  /** {@code metrics} when no keys are named, else the named keys from them and the extras. */
  private static MetricRecord select(LinkedHashMap<String, Object> metrics,
      Map<String, Object> extraSources, List<MetricKey> keys) throws RecordException {
    if (keys.isEmpty()) {
      return new MetricRecord(metrics);
    }
    LinkedHashMap<String, Object> sources = new LinkedHashMap<>(extraSources);
    sources.putAll(metrics);
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (MetricKey k : keys) {
      out.put(k.key(), k.value(sources));
    }
    return new MetricRecord(out);
  }

  private static Message train(FlowerClient client, Message m, List<MetricKey> keys)
      throws Exception {
    ArrayRecord arrays = arrays(m.content());
    List<String> names = new ArrayList<>(arrays.arrays().keySet());
    FitRes res = client.fit(new FitIns(List.copyOf(arrays.toTensors().values()),
        config(m.content())));
    if (res.parameters().size() != names.size()) {
      throw new RecordException("the client returned " + res.parameters().size()
          + " arrays for " + names.size());
    }
    LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      out.put(names.get(i), res.parameters().get(i));
    }
    LinkedHashMap<String, Object> metrics = new LinkedHashMap<>();
    metrics.put(NUM_EXAMPLES, res.numExamples());
    LinkedHashMap<String, Object> own = new LinkedHashMap<>();
    res.metrics().forEach((k, v) -> putMetric(own, k, v));
    own.forEach((k, v) -> metrics.put(k.equals("loss") ? "train_loss" : k, v));
    return m.reply(RecordDict.of(ARRAYS, ArrayRecord.fromTensors(out), METRICS,
        select(metrics, own, keys)));
  }

  private static Message evaluate(FlowerClient client, Message m, List<MetricKey> keys)
      throws Exception {
    ArrayRecord arrays = arrays(m.content());
    EvaluateRes res = client.evaluate(new EvaluateIns(List.copyOf(arrays.toTensors().values()),
        config(m.content())));
    LinkedHashMap<String, Object> metrics = new LinkedHashMap<>();
    metrics.put(NUM_EXAMPLES, res.numExamples());
    metrics.put("eval_loss", (double) res.loss());
    res.metrics().forEach((k, v) -> putMetric(metrics, k, v));
    return m.reply(RecordDict.of(METRICS, select(metrics, Map.of("loss", (double) res.loss()),
        keys)));
  }

  private static void putMetric(Map<String, Object> metrics, String k, Scalar v) {
    switch (v) {
      case Scalar.Double d -> metrics.put(k, d.value());
      case Scalar.Int i -> metrics.put(k, i.value());
      case Scalar.UInt u -> metrics.put(k, new BigInteger(Long.toUnsignedString(u.bits())));
      case Scalar.Bool b -> metrics.put(k, b.value() ? 1L : 0L);
      default -> { } // strings and bytes have no place in a MetricRecord
    }
  }

  /** The model: the ArrayRecord under "arrays", else the only one. */
  static ArrayRecord arrays(RecordDict content) throws RecordException {
    if (content.get(ARRAYS) instanceof ArrayRecord r) {
      return r;
    }
    Map<String, ArrayRecord> all = content.arrayRecords();
    if (all.size() == 1) {
      return all.values().iterator().next();
    }
    throw new RecordException("expected an ArrayRecord under '" + ARRAYS + "' (found "
        + all.keySet() + ")");
  }

  /** The settings: the ConfigRecord under "config", else the only one, as Flower scalars. */
  static Map<String, Scalar> config(RecordDict content) {
    ConfigRecord c = content.get(CONFIG) instanceof ConfigRecord r ? r
        : content.configRecords().size() == 1
            ? content.configRecords().values().iterator().next() : null;
    Map<String, Scalar> out = new LinkedHashMap<>();
    if (c == null) {
      return out;
    }
    c.values().forEach((k, v) -> {
      switch (v) {
        case Double d -> out.put(k, Scalar.of(d));
        case Long l -> out.put(k, Scalar.of(l));
        case Boolean b -> out.put(k, new Scalar.Bool(b));
        case String s -> out.put(k, new Scalar.Str(s));
        case byte[] b -> out.put(k, new Scalar.Bytes(b));
        case BigInteger u -> out.put(k, new Scalar.UInt(u.longValue()));
        default -> { } // lists have no Scalar
      }
    });
    return out;
  }
}
