package io.tributary.flower.fleet.server.internal;

import com.google.protobuf.ByteString;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's instructions as Flower Message-API messages and the replies back, with the keys
 * Flower's Message-API strategies use, so that a ClientApp written for them runs unchanged:
 *
 * <ul>
 *   <li>{@code FitIns} becomes a {@code train} message with {@code arrays} (the model, keys
 *       {@code "0"}, {@code "1"}, ... in order) and {@code config} (the fit config, with
 *       {@code server_round} as {@code server-round}); the reply's {@code arrays} become the
 *       FitRes parameters, its {@code metrics}' {@code num-examples} the example count, its other
 *       numeric metrics the FitRes metrics.</li>
 *   <li>{@code EvaluateIns} becomes an {@code evaluate} message likewise; the reply's
 *       {@code metrics} give {@code num-examples} and {@code loss} (NaN, so left out of the
 *       round's loss, when the ClientApp reports none).</li>
 *   <li>{@code GetParametersIns} becomes a {@code query} message with an empty {@code config};
 *       the reply's {@code arrays} are the parameters.</li>
 * </ul>
 *
 * <p>A reply that carries an error, lacks a record, has arrays that are not numpy arrays, or a
 * {@code num-examples} that is not a non-negative integer is refused with {@link BadReply}
 * naming what was wrong.
 */
public final class MessageApi {
  /** Flower's SuperLink node id, the source of every instruction. */
  public static final long SUPERLINK_NODE_ID = 1;
  /** Flower's {@code DEFAULT_TTL}: 12 hours. */
  public static final double DEFAULT_TTL = 43200;
  /** The tensor type the model is written in for Fleet nodes: numpy's {@code .npy}. */
  public static final String TENSOR_TYPE = Array.NUMPY;

  /** A reply that does not say what the server needs. */
  public static final class BadReply extends Exception {
    private static final long serialVersionUID = 1L;

    public BadReply(String message) {
      super(message);
    }
  }

  private final SerializerRegistry registry;
  /** Whether instructions and replies take Flower's DefaultWorkflow layout. */
  private final boolean defaultWorkflow;
  /** The last model sent and its arrays: every node of a round is sent the same model. */
  private volatile Cached last;
  /** The round of the last fit instruction, which an evaluate message reports too. */
  private volatile long round;

  private record Cached(Parameters model, ArrayRecord arrays) {}

  public MessageApi(SerializerRegistry registry) {
    this(registry, false);
  }

  /**
   * With {@code defaultWorkflow}, instructions and replies take the layout of Flower's
   * {@code DefaultWorkflow} and {@code SecAggPlusWorkflow} ({@link DefaultWorkflowLayout}), which
   * a ClientApp wearing Flower's {@code secaggplus_mod} reads, rather than the Message-API one.
   */
  public MessageApi(SerializerRegistry registry, boolean defaultWorkflow) {
    this.registry = registry;
    this.defaultWorkflow = defaultWorkflow;
  }

  /** The server's answer made of {@code reply} to an instruction of kind {@code sent}. */
  public ClientMessage reply(ServerMessage.MsgCase sent, Message reply) throws BadReply {
    return defaultWorkflow ? DefaultWorkflowLayout.answer(sent, reply) : answer(sent, reply);
  }

  /**
   * A {@code train} message carrying {@code content} as it is, for node {@code nodeId} of run
   * {@code runId}, in group {@code group} (the round).
   */
  public static Message train(RecordDict content, long runId, long nodeId, double ttl,
      String group) {
    return message("train", content, runId, nodeId, ttl, group);
  }

  /**
   * A message of {@code type} carrying {@code content} as it is, for node {@code nodeId} of run
   * {@code runId}, in group {@code group} (the round).
   */
  public static Message message(String type, RecordDict content, long runId, long nodeId,
      double ttl, String group) {
    Instant now = Instant.now();
    double created = now.getEpochSecond() + now.getNano() / 1e9;
    return Message.ofContent(new Metadata(runId, "", SUPERLINK_NODE_ID, nodeId, "", group, ttl,
        type, created), content);
  }

  /** Flower's message type for an instruction. */
  public static String messageType(ServerMessage ins) {
    return switch (ins.getMsgCase()) {
      case FIT_INS -> "train";
      case EVALUATE_INS -> "evaluate";
      case GET_PARAMETERS_INS, GET_PROPERTIES_INS -> "query";
      default -> throw new IllegalArgumentException("no Message-API form for "
          + ins.getMsgCase());
    };
  }

  /**
   * The message carrying {@code ins} to node {@code nodeId} of run {@code runId}.
   *
   * @throws BadReply (naming the instruction) if the model cannot be read back for the message
   */
  public Message instruction(ServerMessage ins, long runId, long nodeId, double ttl)
      throws BadReply {
    RecordDict content = defaultWorkflow ? DefaultWorkflowLayout.content(ins, switch (
        ins.getMsgCase()) {
      case FIT_INS -> arrays(ins.getFitIns().getParameters());
      case EVALUATE_INS -> arrays(ins.getEvaluateIns().getParameters());
      default -> null;
    }) : switch (ins.getMsgCase()) {
      case FIT_INS -> RecordDict.of("arrays", arrays(ins.getFitIns().getParameters()), "config",
          config(ins.getFitIns().getConfigMap()));
      case EVALUATE_INS -> RecordDict.of("arrays", arrays(ins.getEvaluateIns().getParameters()),
          "config", evaluateConfig(ins.getEvaluateIns().getConfigMap()));
      case GET_PARAMETERS_INS -> RecordDict.of("config", config(
          ins.getGetParametersIns().getConfigMap()));
      case GET_PROPERTIES_INS -> RecordDict.of("config", config(
          ins.getGetPropertiesIns().getConfigMap()));
      default -> throw new IllegalArgumentException("no Message-API form for "
          + ins.getMsgCase());
    };
    String group = "";
    if (ins.hasFitIns() && ins.getFitIns().getConfigMap().containsKey("server_round")) {
      round = ins.getFitIns().getConfigMap().get("server_round").getSint64();
    }
    if (round > 0 && (ins.hasFitIns() || ins.hasEvaluateIns())) {
      group = String.valueOf(round);
    }
    Instant now = Instant.now();
    double created = now.getEpochSecond() + now.getNano() / 1e9;
    return Message.ofContent(new Metadata(runId, "", SUPERLINK_NODE_ID, nodeId, "", group, ttl,
        messageType(ins), created), content);
  }

  /** The evaluate config, with the round as {@code server-round} as Flower's strategies send it. */
  private ConfigRecord evaluateConfig(Map<String, io.tributary.flower.internal.proto.Scalar> c)
      throws BadReply {
    ConfigRecord r = config(c);
    if (round <= 0 || r.values().containsKey("server-round")) {
      return r;
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>(r.values());
    out.put("server-round", round);
    return new ConfigRecord(out);
  }

  private ArrayRecord arrays(Parameters p) throws BadReply {
    Cached c = last;
    if (c != null && (c.model() == p || c.model().equals(p))) {
      return c.arrays();
    }
    ArrayRecord made = decodeArrays(p);
    last = new Cached(p, made);
    return made;
  }

  private ArrayRecord decodeArrays(Parameters p) throws BadReply {
    List<Tensor> tensors;
    try {
      tensors = ParametersWire.decode(registry, p);
    } catch (SerializationException e) {
      throw new BadReply("the model cannot be read back: " + e.getMessage());
    }
    LinkedHashMap<String, Array> arrays = new LinkedHashMap<>();
    for (int i = 0; i < tensors.size(); i++) {
      try {
        arrays.put(String.valueOf(i), Array.fromTensor(tensors.get(i)));
      } catch (IllegalArgumentException e) {
        throw new BadReply("the model cannot be sent as numpy arrays: " + e.getMessage());
      }
    }
    return new ArrayRecord(arrays);
  }

  private static ConfigRecord config(Map<String, io.tributary.flower.internal.proto.Scalar> c)
      throws BadReply {
    Map<String, Scalar> scalars;
    try {
      scalars = ScalarCodec.fromProto(c);
    } catch (MalformedMessageException e) {
      throw new BadReply("the config cannot be sent: " + e.getMessage());
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    new java.util.TreeMap<>(scalars).forEach((k, v) -> out.put(
        k.equals("server_round") ? "server-round" : k, value(v)));
    return new ConfigRecord(out);
  }

  static Object value(Scalar s) {
    return switch (s) {
      case Scalar.Double d -> d.value();
      case Scalar.Int i -> i.value();
      case Scalar.UInt u -> u.bits() >= 0 ? (Object) u.bits()
          : new BigInteger(Long.toUnsignedString(u.bits()));
      case Scalar.Bool b -> b.value();
      case Scalar.Str x -> x.value();
      case Scalar.Bytes x -> x.value();
    };
  }

  /**
   * The server's answer made of {@code reply} to an instruction of kind {@code sent}.
   *
   * @throws BadReply naming what the reply lacks or holds wrongly
   */
  public static ClientMessage answer(ServerMessage.MsgCase sent, Message reply) throws BadReply {
    if (reply.error().isPresent()) {
      throw new BadReply("the ClientApp replied with error " + reply.error().get().code() + ": "
          + reply.error().get().reason());
    }
    RecordDict c = reply.content();
    return switch (sent) {
      case FIT_INS -> {
        MetricRecord metrics = metricRecord(c);
        ClientMessage.FitRes.Builder b = ClientMessage.FitRes.newBuilder()
            .setParameters(parameters(c)).setNumExamples(numExamples(metrics));
        b.putAllMetrics(ScalarCodec.toProto(scalars(metrics, "num-examples")));
        yield ClientMessage.newBuilder().setFitRes(b).build();
      }
      case EVALUATE_INS -> {
        MetricRecord metrics = metricRecord(c);
        Object loss = metrics.get("loss");
        float l = loss instanceof Number n ? n.floatValue() : Float.NaN;
        ClientMessage.EvaluateRes.Builder b = ClientMessage.EvaluateRes.newBuilder()
            .setLoss(l).setNumExamples(numExamples(metrics));
        b.putAllMetrics(ScalarCodec.toProto(scalars(metrics, "num-examples", "loss")));
        yield ClientMessage.newBuilder().setEvaluateRes(b).build();
      }
      case GET_PARAMETERS_INS -> ClientMessage.newBuilder().setGetParametersRes(
          ClientMessage.GetParametersRes.newBuilder().setParameters(parameters(c))).build();
      case GET_PROPERTIES_INS -> properties(c, "properties");
      default -> throw new BadReply("no reply is expected to " + sent);
    };
  }

  /**
   * The GetPropertiesRes of a reply's config record {@code key}: its scalar values (lists, which
   * properties cannot hold, left out).
   */
  static ClientMessage properties(RecordDict c, String key) throws BadReply {
    if (!(c.get(key) instanceof ConfigRecord r)) {
      throw new BadReply(c.get(key) == null ? "the reply has no '" + key + "' record"
          : "the reply's '" + key + "' is not a ConfigRecord");
    }
    Map<String, Scalar> out = new LinkedHashMap<>();
    r.values().forEach((k, v) -> {
      switch (v) {
        case Double d -> out.put(k, new Scalar.Double(d));
        case Long l -> out.put(k, new Scalar.Int(l));
        case BigInteger u -> out.put(k, new Scalar.UInt(u.longValue()));
        case Boolean b -> out.put(k, new Scalar.Bool(b));
        case String x -> out.put(k, new Scalar.Str(x));
        case byte[] x -> out.put(k, new Scalar.Bytes(x));
        default -> { }
      }
    });
    return ClientMessage.newBuilder().setGetPropertiesRes(ClientMessage.GetPropertiesRes
        .newBuilder().putAllProperties(ScalarCodec.toProto(out))).build();
  }

  private static MetricRecord metricRecord(RecordDict c) throws BadReply {
    Record r = c.get("metrics");
    if (r instanceof MetricRecord m) {
      return m;
    }
    throw new BadReply(r == null ? "the reply has no 'metrics' record"
        : "the reply's 'metrics' is not a MetricRecord");
  }

  private static long numExamples(MetricRecord m) throws BadReply {
    Object n = m.get("num-examples");
    return switch (n) {
      case null -> throw new BadReply("the reply's metrics have no 'num-examples'");
      case Long l when l >= 0 -> l;
      case Double d when d >= 0 && d == Math.rint(d) && d <= Long.MAX_VALUE -> (long) (double) d;
      default -> throw new BadReply("the reply's 'num-examples' is " + n
          + ", not a non-negative integer");
    };
  }

  /** The scalar metrics but {@code left}; lists (which the server's metrics cannot hold) out. */
  private static Map<String, Scalar> scalars(MetricRecord m, String... left) {
    Map<String, Scalar> out = new LinkedHashMap<>();
    m.values().forEach((k, v) -> {
      if (List.of(left).contains(k)) {
        return;
      }
      switch (v) {
        case Double d -> out.put(k, new Scalar.Double(d));
        case Long l -> out.put(k, new Scalar.Int(l));
        case BigInteger u -> out.put(k, new Scalar.UInt(u.longValue()));
        default -> { }
      }
    });
    return out;
  }

  private static Parameters parameters(RecordDict c) throws BadReply {
    Record r = c.get("arrays");
    if (!(r instanceof ArrayRecord a)) {
      throw new BadReply(r == null ? "the reply has no 'arrays' record"
          : "the reply's 'arrays' is not an ArrayRecord");
    }
    Parameters.Builder p = Parameters.newBuilder().setTensorType(TENSOR_TYPE);
    for (var e : a.arrays().entrySet()) {
      if (!Array.NUMPY.equals(e.getValue().stype())) {
        throw new BadReply("array '" + e.getKey() + "' has stype '" + e.getValue().stype()
            + "', not " + Array.NUMPY);
      }
      p.addTensors(ByteString.copyFrom(e.getValue().data()));
    }
    return p.build();
  }
}
