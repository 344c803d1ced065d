package io.tributary.flower.app.mod;

import io.tributary.flower.app.Context;
import io.tributary.flower.app.MessageHandler;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.flower.records.RecordException;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Flower's {@code fixedclipping_mod} and {@code adaptiveclipping_mod} share: on a train
 * message with exactly one ArrayRecord and one ConfigRecord holding {@code clipping_norm}, run
 * the app, then clip the update (reply minus received arrays) to that L2 norm over all arrays
 * together (Flower's FlatClip) and reply the received arrays plus the clipped update. A broken
 * precondition is an error reply with {@code MOD_FAILED_PRECONDITION}, as Flower's.
 *
 * <p>A message in Flower's DefaultWorkflow layout ({@code fitins.parameters} and
 * {@code fitins.config}, as {@code flwr.client.mod}'s mods of the same names read it) is clipped
 * by {@link LegacyClipping} instead: Flower has one mod per layout, the Java mods tell the
 * layouts apart by those records.
 */
final class Clipping {
  static final String CLIPPING_NORM = "clipping_norm";
  static final String NORM_BIT = "norm_bit";
  static final String LEGACY_PARAMETERS = "fitins.parameters";
  static final String LEGACY_CONFIG = "fitins.config";

  private Clipping() {}

  /** The clipped reply to a train message, or an error reply naming the broken precondition. */
  static Message applyOrError(String mod, Message message, Context context, MessageHandler next,
      boolean adaptive) throws Exception {
    RecordDict in = message.content();
    if (in.get(LEGACY_PARAMETERS) instanceof ArrayRecord
        && in.get(LEGACY_CONFIG) instanceof ConfigRecord) {
      return LegacyClipping.applyOrError(mod, message, context, next, adaptive);
    }
    if (in.arrayRecords().size() != 1) {
      return error(mod, message, "expects exactly one ArrayRecord, but found "
          + in.arrayRecords().size() + " ArrayRecord(s)");
    }
    if (in.configRecords().size() != 1) {
      return error(mod, message, "expects exactly one ConfigRecord, but found "
          + in.configRecords().size() + " ConfigRecord(s)");
    }
    Double norm = norm(in.configRecords().firstEntry().getValue());
    if (norm == null) {
      return error(mod, message, missingNorm(adaptive));
    }
    ArrayRecord received = in.arrayRecords().firstEntry().getValue();
    Message out = next.handle(message, context);
    if (!out.hasContent()) {
      return out;
    }
    RecordDict reply = out.content();
    if (reply.arrayRecords().size() != 1) {
      return error(mod, out, "expects exactly one ArrayRecord in the reply, but found "
          + reply.arrayRecords().size());
    }
    if (adaptive && reply.metricRecords().size() != 1) {
      return error(mod, out, "expects exactly one MetricRecord in the reply, but found "
          + reply.metricRecords().size());
    }
    String arraysKey = reply.arrayRecords().firstEntry().getKey();
    ArrayRecord sent = reply.arrayRecords().firstEntry().getValue();
    if (!List.copyOf(received.arrays().keySet()).equals(List.copyOf(sent.arrays().keySet()))) {
      return error(mod, out, "expects the keys in the ArrayRecord of the reply message to "
          + "match those from the ArrayRecord that the ClientApp received, but they do not");
    }
    Map<String, Tensor> before;
    Map<String, Tensor> after;
    try {
      before = received.toTensors();
      after = sent.toTensors();
    } catch (RecordException e) {
      return error(mod, out, e.getMessage());
    }
    Clipped clipped;
    try {
      clipped = clip(before, after, norm);
    } catch (RecordException e) {
      return error(mod, out, e.getMessage());
    }
    double scale = clipped.scale();
    LinkedHashMap<String, Record> content = new LinkedHashMap<>(reply.records());
    content.put(arraysKey, ArrayRecord.fromTensors(clipped.tensors()));
    if (adaptive) {
      Map.Entry<String, MetricRecord> metrics = reply.metricRecords().firstEntry();
      LinkedHashMap<String, Object> m = new LinkedHashMap<>(metrics.getValue().values());
      m.put(NORM_BIT, scale < 1 ? 1L : 0L);
      content.put(metrics.getKey(), new MetricRecord(m));
    }
    return Message.ofContent(out.metadata(), new RecordDict(content));
  }

  /** The update {@code after - before} clipped to {@code norm}, and the factor it took. */
  record Clipped(LinkedHashMap<String, Tensor> tensors, double scale) {}

  /**
   * {@code before} plus the update to {@code after} scaled to at most {@code norm} (L2 over all
   * arrays together).
   *
   * @throws RecordException when an array is not floating, changed dtype or shape, or the
   *     update is not finite
   */
  static Clipped clip(Map<String, Tensor> before, Map<String, Tensor> after, double norm)
      throws RecordException {
    List<String> names = new ArrayList<>(before.keySet());
    double sumSquares = 0;
    for (String n : names) {
      Tensor a = after.get(n);
      Tensor b = before.get(n);
      if (a == null || !a.dtype().isFloating() || !b.dtype().isFloating()
          || !a.shape().equals(b.shape())) {
        throw new RecordException("array '" + n + "' must be floating and keep its shape ("
            + b.dtype() + b.shape() + " -> " + (a == null ? "none" : a.dtype() + "" + a.shape())
            + ")");
      }
      for (long i = 0; i < a.size(); i++) {
        double d = a.getAsDouble(i) - b.getAsDouble(i);
        sumSquares += d * d;
      }
    }
    double scale = Math.min(1, norm / Math.sqrt(sumSquares));
    if (Double.isNaN(scale)) {
      throw new RecordException("the update is not finite");
    }
    LinkedHashMap<String, Tensor> clipped = new LinkedHashMap<>();
    for (String n : names) {
      Tensor a = after.get(n);
      Tensor b = before.get(n);
      // numpy's received + update: the wider of the two floating dtypes (a float32 model
      // trained from a server's float64 one comes back float64, as Flower's mod returns it)
      DType type = a.dtype().itemSize() >= b.dtype().itemSize() ? a.dtype() : b.dtype();
      TensorBuilder t = TensorBuilder.allocate(type, a.shape());
      for (long i = 0; i < a.size(); i++) {
        double v = b.getAsDouble(i) + (a.getAsDouble(i) - b.getAsDouble(i)) * scale;
        if (type == DType.FLOAT64) {
          t.setDouble(i, v);
        } else {
          t.setFloat(i, (float) v);
        }
      }
      clipped.put(n, t.build());
    }
    return new Clipped(clipped, scale);
  }

  /** The clipping norm in {@code config}, or null when it is missing or not a finite {@code >= 0}. */
  static Double norm(ConfigRecord config) {
    if (!(config.get(CLIPPING_NORM) instanceof Number norm)
        || !(norm.doubleValue() >= 0) || Double.isInfinite(norm.doubleValue())) {
      return null;
    }
    return norm.doubleValue();
  }

  static String missingNorm(boolean adaptive) {
    return "requires the key '" + CLIPPING_NORM + "', a finite number >= 0, in the ConfigRecord "
        + "(is DifferentialPrivacyClientSide" + (adaptive ? "Adaptive" : "Fixed")
        + "Clipping used in the ServerApp?)";
  }

  static boolean isTrain(Message m) {
    String t = m.metadata().messageType();
    return t.equals("train") || t.startsWith("train.");
  }

  static Message error(String mod, Message m, String why) {
    return Message.ofError(errorMetadata(m), new MessageError(
        MessageError.MOD_FAILED_PRECONDITION, mod + " " + why));
  }

  /** The metadata of an error reply: {@code m}'s when it is already a reply, else a reply's. */
  private static io.tributary.flower.records.Metadata errorMetadata(Message m) {
    if (!m.metadata().replyToMessageId().isEmpty()) {
      return m.metadata();
    }
    return m.replyError(new MessageError(MessageError.MOD_FAILED_PRECONDITION, "")).metadata();
  }
}
