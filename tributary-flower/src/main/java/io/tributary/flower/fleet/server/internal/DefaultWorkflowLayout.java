package io.tributary.flower.fleet.server.internal;

import com.google.protobuf.ByteString;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The layout Flower's {@code DefaultWorkflow} and {@code SecAggPlusWorkflow} give messages (its
 * {@code recorddict_compat}): a {@code train} message carries {@code fitins.parameters} and
 * {@code fitins.config}, its reply {@code fitres.parameters}, {@code fitres.num_examples},
 * {@code fitres.metrics} and {@code fitres.status}; {@code evaluate} likewise with
 * {@code evaluateins.*} and {@code evaluateres.loss}, {@code .num_examples}, {@code .metrics},
 * {@code .status}. A ClientApp built from a {@code client_fn} (a NumPyClient) and Flower's
 * {@code secaggplus_mod} read this layout only. Config keys are sent as the server has them.
 */
final class DefaultWorkflowLayout {
  private DefaultWorkflowLayout() {}

  /** The content of {@code ins} in this layout, with the model as {@code arrays}. */
  static RecordDict content(ServerMessage ins, ArrayRecord arrays) throws MessageApi.BadReply {
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    switch (ins.getMsgCase()) {
      case FIT_INS -> {
        out.put("fitins.parameters", arrays);
        out.put("fitins.config", config(ins.getFitIns().getConfigMap()));
      }
      case EVALUATE_INS -> {
        out.put("evaluateins.parameters", arrays);
        out.put("evaluateins.config", config(ins.getEvaluateIns().getConfigMap()));
      }
      case GET_PARAMETERS_INS -> out.put("getparametersins.config",
          config(ins.getGetParametersIns().getConfigMap()));
      case GET_PROPERTIES_INS -> out.put("getpropertiesins.config",
          config(ins.getGetPropertiesIns().getConfigMap()));
      default -> throw new IllegalArgumentException("no DefaultWorkflow form for "
          + ins.getMsgCase());
    }
    return new RecordDict(out);
  }

  /** The fit content of the model {@code arrays} and {@code config}, as Flower's compat has it. */
  static RecordDict fitIns(ArrayRecord arrays, Map<String, Scalar> config) {
    LinkedHashMap<String, Object> c = new LinkedHashMap<>();
    new TreeMap<>(config).forEach((k, v) -> c.put(k, MessageApi.value(v)));
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    out.put("fitins.parameters", arrays);
    out.put("fitins.config", new ConfigRecord(c));
    return new RecordDict(out);
  }

  private static ConfigRecord config(Map<String, io.tributary.flower.internal.proto.Scalar> c)
      throws MessageApi.BadReply {
    try {
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      new TreeMap<>(ScalarCodec.fromProto(c)).forEach((k, v) -> out.put(k,
          MessageApi.value(v)));
      return new ConfigRecord(out);
    } catch (MalformedMessageException e) {
      throw new MessageApi.BadReply("the config cannot be sent: " + e.getMessage());
    }
  }

  /** The server's answer made of {@code reply} to an instruction of kind {@code sent}. */
  static ClientMessage answer(ServerMessage.MsgCase sent, Message reply)
      throws MessageApi.BadReply {
    if (reply.error().isPresent()) {
      throw new MessageApi.BadReply("the ClientApp replied with error "
          + reply.error().get().code() + ": " + reply.error().get().reason());
    }
    RecordDict c = reply.content();
    return switch (sent) {
      case FIT_INS -> {
        status(c, "fitres");
        yield ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
            .setParameters(parameters(c, "fitres.parameters"))
            .setNumExamples(numExamples(c, "fitres"))
            .putAllMetrics(metrics(c, "fitres.metrics"))).build();
      }
      case EVALUATE_INS -> {
        status(c, "evaluateres");
        Object loss = metric(c, "evaluateres.loss", "loss");
        yield ClientMessage.newBuilder().setEvaluateRes(ClientMessage.EvaluateRes.newBuilder()
            .setLoss(loss instanceof Number n ? n.floatValue() : Float.NaN)
            .setNumExamples(numExamples(c, "evaluateres"))
            .putAllMetrics(metrics(c, "evaluateres.metrics"))).build();
      }
      case GET_PARAMETERS_INS -> {
        status(c, "getparametersres");
        yield ClientMessage.newBuilder().setGetParametersRes(
            ClientMessage.GetParametersRes.newBuilder().setParameters(
                parameters(c, "getparametersres.parameters"))).build();
      }
      case GET_PROPERTIES_INS -> {
        status(c, "getpropertiesres");
        yield MessageApi.properties(c, "getpropertiesres.properties");
      }
      default -> throw new MessageApi.BadReply("no reply is expected to " + sent);
    };
  }

  private static void status(RecordDict c, String prefix) throws MessageApi.BadReply {
    if (!(c.get(prefix + ".status") instanceof ConfigRecord s)) {
      throw new MessageApi.BadReply("the reply has no ConfigRecord '" + prefix + ".status'");
    }
    if (!(s.get("code") instanceof Long code) || code != 0) {
      throw new MessageApi.BadReply("the reply's status is " + s.get("code") + ": "
          + s.get("message"));
    }
  }

  private static Object metric(RecordDict c, String record, String key)
      throws MessageApi.BadReply {
    if (!(c.get(record) instanceof MetricRecord m)) {
      throw new MessageApi.BadReply("the reply has no MetricRecord '" + record + "'");
    }
    return m.get(key);
  }

  private static long numExamples(RecordDict c, String prefix) throws MessageApi.BadReply {
    Object n = metric(c, prefix + ".num_examples", "num_examples");
    return switch (n) {
      case null -> throw new MessageApi.BadReply("the reply has no '" + prefix
          + ".num_examples'");
      case Long l when l >= 0 -> l;
      default -> throw new MessageApi.BadReply("the reply's '" + prefix + ".num_examples' is "
          + n + ", not a non-negative integer");
    };
  }

  /** The scalar metrics of a ConfigRecord; lists, which a FitRes cannot hold, left out. */
  private static Map<String, io.tributary.flower.internal.proto.Scalar> metrics(RecordDict c,
      String record) throws MessageApi.BadReply {
    Record r = c.get(record);
    if (r == null) {
      return Map.of();
    }
    if (!(r instanceof ConfigRecord m)) {
      throw new MessageApi.BadReply("the reply's '" + record + "' is not a ConfigRecord");
    }
    Map<String, Scalar> out = new LinkedHashMap<>();
    m.values().forEach((k, v) -> {
      switch (v) {
        case Double d -> out.put(k, new Scalar.Double(d));
        case Long l -> out.put(k, new Scalar.Int(l));
        case BigInteger u -> out.put(k, new Scalar.UInt(u.longValue()));
        case Boolean b -> out.put(k, new Scalar.Bool(b));
        case String s -> out.put(k, new Scalar.Str(s));
        case byte[] b -> out.put(k, new Scalar.Bytes(b));
        default -> { }
      }
    });
    return ScalarCodec.toProto(out);
  }

  private static Parameters parameters(RecordDict c, String record) throws MessageApi.BadReply {
    if (!(c.get(record) instanceof ArrayRecord a)) {
      throw new MessageApi.BadReply("the reply has no ArrayRecord '" + record + "'");
    }
    Parameters.Builder p = Parameters.newBuilder().setTensorType(MessageApi.TENSOR_TYPE);
    for (var e : a.arrays().entrySet()) {
      if (!Array.NUMPY.equals(e.getValue().stype())) {
        throw new MessageApi.BadReply("array '" + e.getKey() + "' has stype '"
            + e.getValue().stype() + "', not " + Array.NUMPY);
      }
      if (e.getValue().data().length > 0) {
        p.addTensors(ByteString.copyFrom(e.getValue().data()));
      }
    }
    return p.build();
  }
}
