package io.tributary.flower.app;

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
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.records.RecordException;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ClientApp for Flower's DefaultWorkflow record layout (what Flower's {@code NumPyClient}s see
 * through {@code flwr.common.recorddict_compat}): {@code get_properties}, {@code get_parameters},
 * {@code train} and {@code evaluate} messages carrying {@code fitins.parameters} /
 * {@code fitins.config} (and the {@code evaluateins.*}, {@code getparametersins.config},
 * {@code getpropertiesins.config} records), answered with {@code fitres.*},
 * {@code evaluateres.*}, {@code getparametersres.*} and {@code getpropertiesres.*} records and a
 * {@code <res>.status} of code 0, "Success". Arrays travel as Flower's compat code writes them:
 * keys {@code "0"}, {@code "1"}... in order ({@code "_empty"} for none), stype
 * {@code numpy.ndarray}, empty dtype and shape, the NPY bytes as data. So an existing
 * {@link FlowerClient} (a {@code TrainingClient}) takes part in a DefaultWorkflow app unchanged.
 */
public final class LegacyClientApp {
  static final String EMPTY_TENSOR_KEY = "_empty";
  static final String GET_PROPERTIES = "get_properties";
  static final String GET_PARAMETERS = "get_parameters";

  private LegacyClientApp() {}

  /** The app serving {@code client} one message at a time. */
  public static ClientApp of(FlowerClient client) {
    Object lock = new Object();
    return ClientApp.builder()
        .on(GET_PROPERTIES, (m, c) -> {
          synchronized (lock) {
            Map<String, Scalar> props = client.getProperties(config(m, "getpropertiesins.config"));
            LinkedHashMap<String, Record> out = new LinkedHashMap<>();
            out.put("getpropertiesres.properties", configRecord(props));
            return reply(m, out, "getpropertiesres");
          }
        })
        .on(GET_PARAMETERS, (m, c) -> {
          synchronized (lock) {
            List<Tensor> params = client.getParameters(config(m, "getparametersins.config"));
            LinkedHashMap<String, Record> out = new LinkedHashMap<>();
            out.put("getparametersres.parameters", parameters(params));
            return reply(m, out, "getparametersres");
          }
        })
        .train((m, c) -> {
          synchronized (lock) {
            FitRes res = client.fit(new FitIns(tensors(m, "fitins.parameters"),
                config(m, "fitins.config")));
            LinkedHashMap<String, Record> out = new LinkedHashMap<>();
            out.put("fitres.metrics", configRecord(res.metrics()));
            out.put("fitres.num_examples", new MetricRecord(Map.of("num_examples",
                res.numExamples())));
            out.put("fitres.parameters", parameters(res.parameters()));
            return reply(m, out, "fitres");
          }
        })
        .evaluate((m, c) -> {
          synchronized (lock) {
            EvaluateRes res = client.evaluate(new EvaluateIns(tensors(m, "evaluateins.parameters"),
                config(m, "evaluateins.config")));
            LinkedHashMap<String, Record> out = new LinkedHashMap<>();
            out.put("evaluateres.loss", new MetricRecord(Map.of("loss", (double) res.loss())));
            out.put("evaluateres.num_examples", new MetricRecord(Map.of("num_examples",
                res.numExamples())));
            out.put("evaluateres.metrics", configRecord(res.metrics()));
            return reply(m, out, "evaluateres");
          }
        })
        .build();
  }

  private static Message reply(Message m, LinkedHashMap<String, Record> out, String res) {
    LinkedHashMap<String, Object> status = new LinkedHashMap<>();
    status.put("code", 0L);
    status.put("message", "Success");
    out.put(res + ".status", new ConfigRecord(status));
    return m.reply(new RecordDict(out));
  }

  private static Map<String, Scalar> config(Message m, String key) throws RecordException {
    if (!(m.content().get(key) instanceof ConfigRecord)) {
      throw new RecordException("a DefaultWorkflow '" + m.metadata().messageType()
          + "' message needs the ConfigRecord '" + key + "' (found " + m.content().records()
          .keySet() + ")");
    }
    return TrainingClientApp.config(RecordDict.of("config", m.content().get(key)));
  }

  /** The tensors of a compat ArrayRecord: each array's data is NPY bytes, in key order. */
  static List<Tensor> tensors(Message m, String key) throws RecordException {
    if (!(m.content().get(key) instanceof ArrayRecord r)) {
      throw new RecordException("a DefaultWorkflow '" + m.metadata().messageType()
          + "' message needs the ArrayRecord '" + key + "' (found " + m.content().records()
          .keySet() + ")");
    }
    List<Tensor> out = new ArrayList<>();
    for (Map.Entry<String, Array> e : r.arrays().entrySet()) {
      if (e.getKey().equals(EMPTY_TENSOR_KEY)) {
        continue;
      }
      Array a = e.getValue();
      if (!a.stype().equals(Array.NUMPY)) {
        throw new RecordException("array '" + e.getKey() + "' of '" + key + "' has stype '"
            + a.stype() + "'; only " + Array.NUMPY + " is read");
      }
      try {
        out.add(Npy.fromBytes(a.data()));
      } catch (NpyException ex) {
        throw new RecordException("array '" + e.getKey() + "' of '" + key
            + "' is not NPY data: " + ex.getMessage());
      }
    }
    return out;
  }

  /** Tensors as Flower's {@code parameters_to_arrayrecord} writes them. */
  static ArrayRecord parameters(List<Tensor> tensors) throws NpyException {
    LinkedHashMap<String, Array> arrays = new LinkedHashMap<>();
    for (int i = 0; i < tensors.size(); i++) {
      arrays.put(Integer.toString(i), new Array("", new int[0], Array.NUMPY,
          Npy.toBytes(tensors.get(i))));
    }
    if (tensors.isEmpty()) {
      arrays.put(EMPTY_TENSOR_KEY, new Array("", new int[0], Array.NUMPY, new byte[0]));
    }
    return new ArrayRecord(arrays);
  }

  private static ConfigRecord configRecord(Map<String, Scalar> values) {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    values.forEach((k, v) -> m.put(k, v.recordValue()));
    return new ConfigRecord(m);
  }
}
