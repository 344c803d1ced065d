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
 */
final class Clipping {
  static final String CLIPPING_NORM = "clipping_norm";
  static final String NORM_BIT = "norm_bit";

  private Clipping() {}

  /** The clipped reply to a train message, or an error reply naming the broken precondition. */
  static Message applyOrError(String mod, Message message, Context context, MessageHandler next,
      boolean adaptive) throws Exception {
    RecordDict in = message.content();
    if (in.arrayRecords().size() != 1) {
      return error(mod, message, "expects exactly one ArrayRecord, but found "
          + in.arrayRecords().size() + " ArrayRecord(s)");
    }
    if (in.configRecords().size() != 1) {
      return error(mod, message, "expects exactly one ConfigRecord, but found "
          + in.configRecords().size() + " ConfigRecord(s)");
    }
    ConfigRecord config = in.configRecords().firstEntry().getValue();
    if (!(config.get(CLIPPING_NORM) instanceof Number norm)
        || !(norm.doubleValue() >= 0) || Double.isInfinite(norm.doubleValue())) {
      return error(mod, message, "requires the key '" + CLIPPING_NORM + "', a finite number "
          + ">= 0, in the ConfigRecord (is DifferentialPrivacyClientSide"
          + (adaptive ? "Adaptive" : "Fixed") + "Clipping used in the ServerApp?)");
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
    List<String> names = new ArrayList<>(before.keySet());
    double sumSquares = 0;
    for (String n : names) {
      Tensor a = after.get(n);
      Tensor b = before.get(n);
      if (!a.dtype().isFloating() || a.dtype() != b.dtype() || !a.shape().equals(b.shape())) {
        return error(mod, out, "array '" + n + "' must be floating and keep its dtype and "
            + "shape (" + b.dtype() + b.shape() + " -> " + a.dtype() + a.shape() + ")");
      }
      for (long i = 0; i < a.size(); i++) {
        double d = a.getAsDouble(i) - b.getAsDouble(i);
        sumSquares += d * d;
      }
    }
    double scale = Math.min(1, norm.doubleValue() / Math.sqrt(sumSquares));
    if (Double.isNaN(scale)) {
      return error(mod, out, "the update is not finite");
    }
    LinkedHashMap<String, Tensor> clipped = new LinkedHashMap<>();
    for (String n : names) {
      Tensor a = after.get(n);
      Tensor b = before.get(n);
      TensorBuilder t = TensorBuilder.allocate(a.dtype(), a.shape());
      for (long i = 0; i < a.size(); i++) {
        double v = b.getAsDouble(i) + (a.getAsDouble(i) - b.getAsDouble(i)) * scale;
        if (a.dtype() == DType.FLOAT64) {
          t.setDouble(i, v);
        } else {
          t.setFloat(i, (float) v);
        }
      }
      clipped.put(n, t.build());
    }
    LinkedHashMap<String, Record> content = new LinkedHashMap<>(reply.records());
    content.put(arraysKey, ArrayRecord.fromTensors(clipped));
    if (adaptive) {
      Map.Entry<String, MetricRecord> metrics = reply.metricRecords().firstEntry();
      LinkedHashMap<String, Object> m = new LinkedHashMap<>(metrics.getValue().values());
      m.put(NORM_BIT, scale < 1 ? 1L : 0L);
      content.put(metrics.getKey(), new MetricRecord(m));
    }
    return Message.ofContent(out.metadata(), new RecordDict(content));
  }

  static boolean isTrain(Message m) {
    String t = m.metadata().messageType();
    return t.equals("train") || t.startsWith("train.");
  }

  private static Message error(String mod, Message m, String why) {
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
