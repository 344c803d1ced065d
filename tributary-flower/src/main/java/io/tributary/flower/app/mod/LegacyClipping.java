package io.tributary.flower.app.mod;

import io.tributary.flower.app.Context;
import io.tributary.flower.app.MessageHandler;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.records.RecordException;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clipping mods on Flower's DefaultWorkflow layout, as {@code flwr.client.mod}'s
 * {@code fixedclipping_mod} and {@code adaptiveclipping_mod} do it: the model is
 * {@code fitins.parameters} (NPY arrays under {@code "0"}, {@code "1"}...), the norm
 * {@code clipping_norm} in {@code fitins.config}; the reply's {@code fitres.parameters} is
 * replaced by the received model plus the clipped update, and the adaptive mod adds
 * {@code norm_bit} (a bool, as Flower's FitRes metrics carry it) to {@code fitres.metrics}.
 * Inside {@code SecAggPlusMod} this is what runs in the {@code collect_masked_vectors} stage.
 */
final class LegacyClipping {
  static final String REPLY_PARAMETERS = "fitres.parameters";
  static final String REPLY_METRICS = "fitres.metrics";
  private static final String EMPTY = "_empty";

  private LegacyClipping() {}

  static Message applyOrError(String mod, Message message, Context context, MessageHandler next,
      boolean adaptive) throws Exception {
    RecordDict in = message.content();
    Double norm = Clipping.norm((ConfigRecord) in.get(Clipping.LEGACY_CONFIG));
    if (norm == null) {
      return Clipping.error(mod, message, Clipping.missingNorm(adaptive).replace(
          "in the ConfigRecord", "in '" + Clipping.LEGACY_CONFIG + "'"));
    }
    Map<String, Tensor> before;
    try {
      before = tensors((ArrayRecord) in.get(Clipping.LEGACY_PARAMETERS),
          Clipping.LEGACY_PARAMETERS);
    } catch (RecordException e) {
      return Clipping.error(mod, message, e.getMessage());
    }
    Message out = next.handle(message, context);
    if (!out.hasContent()) {
      return out;
    }
    RecordDict reply = out.content();
    if (!(reply.get(REPLY_PARAMETERS) instanceof ArrayRecord sent)) {
      return Clipping.error(mod, out, "expects the ArrayRecord '" + REPLY_PARAMETERS
          + "' in the reply (found " + reply.records().keySet() + ")");
    }
    if (adaptive && !(reply.get(REPLY_METRICS) instanceof ConfigRecord)) {
      return Clipping.error(mod, out, "expects the ConfigRecord '" + REPLY_METRICS
          + "' in the reply (found " + reply.records().keySet() + ")");
    }
    Clipping.Clipped clipped;
    try {
      Map<String, Tensor> after = tensors(sent, REPLY_PARAMETERS);
      if (!after.keySet().equals(before.keySet())) {
        return Clipping.error(mod, out, "expects the reply's " + after.size()
            + " arrays to match the " + before.size() + " the ClientApp received");
      }
      clipped = Clipping.clip(before, after, norm);
    } catch (RecordException e) {
      return Clipping.error(mod, out, e.getMessage());
    }
    LinkedHashMap<String, Record> content = new LinkedHashMap<>(reply.records());
    content.put(REPLY_PARAMETERS, arrays(clipped.tensors()));
    if (adaptive) {
      LinkedHashMap<String, Object> m = new LinkedHashMap<>(
          ((ConfigRecord) reply.get(REPLY_METRICS)).values());
      m.put(Clipping.NORM_BIT, clipped.scale() < 1);
      content.put(REPLY_METRICS, new ConfigRecord(m));
    }
    return Message.ofContent(out.metadata(), new RecordDict(content));
  }

  /** A compat ArrayRecord's tensors by key, in order ({@code "_empty"} stands for none). */
  private static Map<String, Tensor> tensors(ArrayRecord r, String name) throws RecordException {
    LinkedHashMap<String, Tensor> out = new LinkedHashMap<>();
    for (Map.Entry<String, Array> e : r.arrays().entrySet()) {
      if (e.getKey().equals(EMPTY)) {
        continue;
      }
      if (!e.getValue().stype().equals(Array.NUMPY)) {
        throw new RecordException("array '" + e.getKey() + "' of '" + name + "' has stype '"
            + e.getValue().stype() + "'; only " + Array.NUMPY + " is read");
      }
      try {
        out.put(e.getKey(), Npy.fromBytes(e.getValue().data()));
      } catch (NpyException ex) {
        throw new RecordException("array '" + e.getKey() + "' of '" + name
            + "' is not NPY data: " + ex.getMessage());
      }
    }
    return out;
  }

  /** Tensors as Flower's compat code writes them: NPY data, empty dtype and shape. */
  private static ArrayRecord arrays(Map<String, Tensor> tensors) throws NpyException {
    LinkedHashMap<String, Array> arrays = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      arrays.put(e.getKey(), new Array("", new int[0], Array.NUMPY, Npy.toBytes(e.getValue())));
    }
    if (tensors.isEmpty()) {
      arrays.put(EMPTY, new Array("", new int[0], Array.NUMPY, new byte[0]));
    }
    return new ArrayRecord(arrays);
  }
}
