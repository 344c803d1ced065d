package io.tributary.flower.server.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorMath;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.BiFunction;

/**
 * The client work of the server's federated computations, as Java functions whose client value D
 * is the client's id ({@code string}): {@code flower_fit} sends FitIns and turns the FitRes into
 * the client update {@code <delta=M,num_examples=int64,loss=float32,loss_weight=float32>}
 * (weight 0 when the client reported no usable {@code loss} metric); {@code flower_evaluate}
 * sends EvaluateIns and gives {@code <loss=float32,num_examples=int64>}.
 *
 * <p>Anything wrong with one client's answer throws a {@link
 * io.tributary.flower.server.RemoteClientException} naming the client, which the runtime turns
 * into that client's failure.
 */
public final class RemoteClientWork {
  /** D: a client is known to the computations by its id. */
  public static final TensorType CLIENT_ID = TensorType.of(DType.STRING);
  private static final TensorType INT64 = TensorType.of(DType.INT64);
  private static final TensorType FLOAT32 = TensorType.of(DType.FLOAT32);
  /**
   * The largest loss times weight a client's loss may have to count, 2^100: far above any real
   * loss, and small enough that the float32 sum over 2^27 clients stays below Float.MAX_VALUE.
   */
  private static final double MAX_WEIGHTED_LOSS = 0x1p100;

  private final ClientManager manager;
  private final SerializerRegistry registry;
  private final ModelSpec spec;
  private final Optional<Duration> timeout;
  private final Map<String, Scalar> fitConfig;
  private final Map<String, Scalar> evaluateConfig;
  private final ModelEncoder encoder;
  private final long maxExamples;
  private final double examplesOverMedian;
  /** This round's round-relative bound on a client's example count, set after each round. */
  private volatile long relativeMaxExamples = Long.MAX_VALUE;
  private final java.util.concurrent.atomic.AtomicInteger nonFiniteMetrics =
      new java.util.concurrent.atomic.AtomicInteger();
  private final ClientReports fitReports = new ClientReports();
  private final ClientReports evaluateReports = new ClientReports();
  private volatile Dispatch fitDispatch;
  /** The round being fitted, sent as {@code server_round} in every FitIns config. */
  private volatile int round;
  private volatile Dispatch evaluateDispatch;
  /** Told of each client's answer or failure in the invocation under way. */
  private volatile RoundProgress fitProgress = RoundProgress.NONE;
  private volatile RoundProgress evaluateProgress = RoundProgress.NONE;
  /** The secure round, when fit rounds aggregate with SecAgg+. */
  private volatile SecureFit secure;
  /** The clients of the secure round being fitted. */
  private volatile List<RemoteClient> secureClients = List.of();

  /**
   * The value of D standing for a whole secure round: with secure aggregation the fit cohort is
   * this one pseudo-client, whose update is the securely aggregated mean of the sampled clients.
   */
  public static final String SECURE_ROUND_ID = "secure-aggregation";

  /**
   * The prefix of D for the shares of a secure round under client-side differential privacy
   * ({@code clipping_norm} in the fit config): the cohort is one pseudo-client per sampled
   * client, {@code secure-aggregation/i}; the first S (the survivors) each hold the survivors'
   * mean clipped update and the rest a zero update, so that the DP aggregator's sum is the sum
   * of the S clipped updates, each of norm at most C, and its noise is scaled as without SecAgg+.
   */
  public static final String SECURE_SHARE_PREFIX = SECURE_ROUND_ID + "/";

  /** Fit-config entries of the round under way, from the server state before it. */
  private volatile Map<String, Scalar> roundConfig = Map.of();
  /** Whether fit results carry the client's {@code norm_bit} into the round computation. */
  private volatile boolean reportsNormBit;

  /** The outcome of the secure round of {@link #round}, shared by its shares. */
  private SecureFitProtocol.Outcome shared;
  private int sharedRound = -1;

  /**
   * @param maxExamples the bound on the example count a client is weighted with (the runtime's
   *     weight bound), which also bounds the weight of its loss
   * @param examplesOverMedian from the second round on, a client's count above this multiple of
   *     the previous round's median count counts as that bound; 0 for none
   */
  public RemoteClientWork(ClientManager manager, SerializerRegistry registry, ModelSpec spec,
      Optional<Duration> timeout, Map<String, Scalar> fitConfig,
      Map<String, Scalar> evaluateConfig, long maxExamples, double examplesOverMedian) {
    this.examplesOverMedian = examplesOverMedian;
    this.manager = manager;
    this.registry = registry;
    this.spec = spec;
    this.timeout = timeout;
    this.fitConfig = Map.copyOf(fitConfig);
    this.evaluateConfig = Map.copyOf(evaluateConfig);
    this.encoder = new ModelEncoder(registry);
    this.maxExamples = maxExamples;
  }

  /**
   * The client metrics found NaN or infinite since the last call, and a fresh count: such a
   * metric is left out of the round's aggregate metrics, and counted here.
   */
  /**
   * Aggregates fit rounds securely with {@code protocol} from now on: the fit cohort must then
   * be the single pseudo-client {@link #SECURE_ROUND_ID}.
   */
  public void secureAggregation(SecureAggregation options, SecureFitProtocol protocol) {
    this.secure = new SecureRound(protocol, options, timeout, this::encode);
  }

  /**
   * Aggregates fit rounds securely with {@code round} from now on (a server that runs its own
   * secure round, such as Flower's SecAgg+ over the Fleet API), as
   * {@link #secureAggregation(SecureAggregation, SecureFitProtocol)} does.
   */
  public void secureAggregation(SecureFit round) {
    this.secure = java.util.Objects.requireNonNull(round, "round");
  }

  /**
   * The secure-aggregation protocol on the class path ({@link java.util.ServiceLoader}), the
   * first found, for a caller outside the server that aggregates its clients securely (a relay).
   *
   * @throws io.tributary.flower.server.FlowerServerException when there is none
   */
  public static SecureFitProtocol secureProtocol()
      throws io.tributary.flower.server.FlowerServerException {
    return SecureRound.protocol();
  }

  /**
   * Makes {@code clients} the clients of the next secure fit invocations, for a caller that
   * invokes {@link #fit} itself rather than through the server's dispatch (a relay, whose edge
   * rounds each run one secure round over the same clients).
   *
   * @throws IllegalStateException when fit rounds do not aggregate securely
   */
  public void secureClients(List<RemoteClient> clients) {
    SecureFit s = secure;
    if (s == null) {
      throw new IllegalStateException("fit rounds do not aggregate securely");
    }
    secureClients = List.copyOf(clients);
    s.reset();
  }

  /** Sets the fit-config entries of the next rounds (they win over the fixed ones). */
  public void roundConfig(Map<String, Scalar> entries) {
    this.roundConfig = Map.copyOf(entries);
  }

  /**
   * Makes {@link #fit} return each client's {@code norm_bit} too (1 when the FitRes metric
   * {@code norm_bit} is true or a non-zero number, 0 when false or zero), for an aggregator that
   * counts them; a client that does not report it fails. Call before {@link #fit}.
   */
  public void reportNormBits() {
    this.reportsNormBit = true;
  }

  /** Whether fit rounds aggregate with SecAgg+. */
  public boolean isSecure() {
    return secure != null;
  }

  /**
   * The fit cohort's client values for a secure round over {@code sampled} clients: one
   * pseudo-client, or one share per client under client-side DP ({@link #SECURE_SHARE_PREFIX}).
   */
  public List<Tensor> secureCohort(int sampled) {
    if (!fitConfig.containsKey("clipping_norm")) {
      return List.of(clientValue(SECURE_ROUND_ID));
    }
    List<Tensor> out = new ArrayList<>(sampled);
    for (int i = 0; i < sampled; i++) {
      out.add(clientValue(SECURE_SHARE_PREFIX + i));
    }
    return out;
  }

  /** The round's secure outcome, computed by the first share that asks for it. */
  private synchronized SecureFitProtocol.Outcome sharedOutcome(StructValue model) {
    if (sharedRound != round) {
      shared = null;
      sharedRound = round;
      shared = secure.run(secureClients, model, fitConfig(round));
    } else if (shared == null) {
      throw new SecureFitProtocol.Failed("the secure round failed for an earlier share", null);
    }
    return shared;
  }

  /** Why clients were excluded from the last secure round, one line each; empty if none. */
  public List<String> secureExclusions() {
    SecureFit s = secure;
    return s == null ? List.of() : s.exclusions();
  }

  public int drainNonFiniteMetrics() {
    return nonFiniteMetrics.getAndSet(0) + fitReports.drainNonFinite()
        + evaluateReports.drainNonFinite();
  }

  /**
   * The round's client metrics, each aggregated as {@code how} says (by default the mean weighted
   * by examples) over the clients whose results the round used: FitRes metrics as {@code
   * fit_NAME} (but {@code loss}, which is the round's {@code client_loss}), EvaluateRes metrics as
   * {@code evaluate_NAME}; and a fresh start for the next round.
   *
   * @param failedFit the ids of the clients whose fit failed
   * @param failedEvaluate the ids of the clients whose evaluation failed
   */
  public java.util.SortedMap<String, Double> drainClientMetrics(java.util.Set<String> failedFit,
      java.util.Set<String> failedEvaluate,
      Map<String, io.tributary.learning.MetricAggregation> how) {
    long median = fitReports.medianExamples(failedFit);
    if (examplesOverMedian > 0 && median >= 0) {
      // The next round's bound; a median of 0 still lets a client count one example.
      relativeMaxExamples = (long) Math.min(Math.max(1, Math.ceil(examplesOverMedian * median)),
          (double) Long.MAX_VALUE);
    }
    java.util.SortedMap<String, Double> out = fitReports.drain("fit_", failedFit, how);
    out.putAll(evaluateReports.drain("evaluate_", failedEvaluate, how));
    return out;
  }

  /**
   * Prepares the next {@code next} invocation over {@code clients}: its first client function
   * sends every client's FitIns at once. Close it once the invocation has returned.
   */
  Dispatch dispatchFit(int round, List<RemoteClient> clients) {
    return dispatchFit(round, clients, RoundProgress.NONE);
  }

  /** Like {@link #dispatchFit(int, List)}, telling {@code progress} of each client. */
  Dispatch dispatchFit(int round, List<RemoteClient> clients, RoundProgress progress) {
    this.round = round;
    this.fitProgress = progress;
    if (secure != null) {
      // The secure round talks to the clients itself, stage by stage.
      secureClients = List.copyOf(clients);
      secure.reset();
      secure.progress(round, progress);
      synchronized (this) {
        sharedRound = -1;
        shared = null;
      }
      Dispatch d = new Dispatch(ServerMessage.MsgCase.FIT_INS, List.of(), this::fitIns, timeout);
      fitDispatch = d;
      return d;
    }
    Dispatch d = new Dispatch(ServerMessage.MsgCase.FIT_INS, clients, this::fitIns, timeout);
    fitDispatch = d;
    return d;
  }

  /** Like {@link #dispatchFit}, for the next {@code evaluate} invocation. */
  Dispatch dispatchEvaluate(List<RemoteClient> clients) {
    return dispatchEvaluate(clients, RoundProgress.NONE);
  }

  /** Like {@link #dispatchEvaluate(List)}, telling {@code progress} of each client. */
  Dispatch dispatchEvaluate(List<RemoteClient> clients, RoundProgress progress) {
    this.evaluateProgress = progress;
    Dispatch d = new Dispatch(ServerMessage.MsgCase.EVALUATE_INS, clients, this::evaluateIns,
        timeout);
    evaluateDispatch = d;
    return d;
  }

  /** The value of D for a client. */
  public static Tensor clientValue(String clientId) {
    return Tensor.ofStrings(Shape.scalar(), clientId);
  }

  /**
   * {@code flower_fit: (<model=M,data=string> ->
   * <delta=M,num_examples=int64,loss=float32,loss_weight=float32>)}.
   */
  public Computation fit() {
    StructType m = spec.type();
    StructType result = reportsNormBit
        ? StructType.named("delta", m, "num_examples", INT64, "loss", FLOAT32, "loss_weight",
            FLOAT32, "norm_bit", INT64)
        : StructType.named("delta", m, "num_examples", INT64, "loss", FLOAT32, "loss_weight",
            FLOAT32);
    return Federated.local("flower_fit", FunctionType.of(
        StructType.named("model", m, "data", CLIENT_ID), result),
        a -> told(a, fitProgress, this::runFit));
  }

  /** {@code flower_evaluate: (<model=M,data=string> -> <loss=float32,num_examples=int64>)}. */
  public Computation evaluation() {
    return Federated.local("flower_evaluate", FunctionType.of(
        StructType.named("model", spec.type(), "data", CLIENT_ID),
        StructType.named("loss", FLOAT32, "num_examples", INT64)),
        a -> told(a, evaluateProgress, this::runEvaluate));
  }

  /**
   * Runs one client's work, telling {@code progress} that the client answered or why it
   * failed, as it happens; the secure round's pseudo-clients are told by the secure round.
   */
  private Object told(Object argument, RoundProgress progress,
      java.util.function.UnaryOperator<Object> work) {
    String id = ((Tensor) ((StructValue) argument).get(1)).getString(0);
    if (progress == RoundProgress.NONE || id.startsWith(SECURE_ROUND_ID)) {
      return work.apply(argument);
    }
    int r = round;
    Object out;
    try {
      out = work.apply(argument);
    } catch (RuntimeException e) {
      progress.clientFailed(r, id, String.valueOf(e.getMessage()));
      throw e;
    }
    progress.clientReported(r, id);
    return out;
  }

  /** {@code ( -> <model=M>@SERVER)}, the process's first state: the given tensors. */
  public static Computation initialize(ModelSpec spec, List<Tensor> initial) {
    StructValue value = spec.value(initial);
    Computation model = Federated.local("initial_parameters", FunctionType.noParameter(
        StructType.named("model", spec.type())), x -> StructValue.named("model", value));
    return Federated.computation(() -> Intrinsics.federatedEval(model, Placement.SERVER));
  }

  /**
   * The algorithm's fit config with {@code server_round}, the round from 1, as Flower's examples
   * name it: a client that shuffles by round (a TrainingClient repeating a simulation) reads it.
   */
  private Map<String, Scalar> fitConfig(int r) {
    Map<String, Scalar> c = new java.util.LinkedHashMap<>(fitConfig);
    c.putAll(roundConfig);
    c.putIfAbsent("server_round", Scalar.of((long) r));
    return c;
  }

  private ServerMessage fitIns(RemoteClient client, StructValue model) {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(encode(client, model)).putAllConfig(ScalarCodec.toProto(fitConfig(round))))
        .build();
  }

  private ServerMessage evaluateIns(RemoteClient client, StructValue model) {
    return ServerMessage.newBuilder().setEvaluateIns(ServerMessage.EvaluateIns.newBuilder()
        .setParameters(encode(client, model)).putAllConfig(ScalarCodec.toProto(evaluateConfig)))
        .build();
  }

  /** The client's answer: from the invocation's dispatch, or asked for here if not in it. */
  private Dispatch.Answer exchange(Dispatch dispatch, Object argument,
      ClientMessage.MsgCase expected, BiFunction<RemoteClient, StructValue, ServerMessage> ins) {
    StructValue model = (StructValue) ((StructValue) argument).get(0);
    String id = ((Tensor) ((StructValue) argument).get(1)).getString(0);
    if (dispatch != null) {
      Optional<Dispatch.Answer> answer = dispatch.await(id, model, expected);
      if (answer.isPresent()) {
        return answer.get();
      }
    }
    RemoteClient client = client(id);
    return new Dispatch.Answer(client, RemoteCall.ask(client, ins.apply(client, model), expected,
        timeout));
  }

  private Object runFit(Object argument) {
    StructValue model = (StructValue) ((StructValue) argument).get(0);
    String clientId = ((Tensor) ((StructValue) argument).get(1)).getString(0);
    if (secure != null && clientId.startsWith(SECURE_SHARE_PREFIX)) {
      int share = Integer.parseInt(clientId.substring(SECURE_SHARE_PREFIX.length()));
      SecureFitProtocol.Outcome o = sharedOutcome(model);
      List<Tensor> delta = o.meanDelta();
      if (share >= o.survivors()) {
        List<Tensor> zeros = new ArrayList<>(delta.size());
        for (Tensor t : delta) {
          zeros.add(TensorMath.fromDoubles(t.dtype(), t.shape(), new double[(int) t.size()]));
        }
        delta = zeros;
      }
      return StructValue.named("delta", spec.value(delta), "num_examples",
          Tensor.ofLongs(Shape.scalar(), 1), "loss", Tensor.scalar(0f),
          "loss_weight", Tensor.scalar(0f));
    }
    if (secure != null && clientId.equals(SECURE_ROUND_ID)) {
      SecureFitProtocol.Outcome o = secure.run(secureClients, model, fitConfig(round));
      // One aggregated update: the algorithm's weighted mean over it is the update itself.
      return StructValue.named("delta", spec.value(o.meanDelta()), "num_examples",
          Tensor.ofLongs(Shape.scalar(), o.examples()), "loss", Tensor.scalar(0f),
          "loss_weight", Tensor.scalar(0f));
    }
    Dispatch.Answer answer = exchange(fitDispatch, argument, ClientMessage.MsgCase.FIT_RES,
        this::fitIns);
    RemoteClient client = answer.client();
    ClientMessage.FitRes res = answer.message().getFitRes();
    RemoteCall.requireOk(client, res.getStatus(), "FitRes");
    List<Tensor> got = decode(client, res.getParameters());
    if (res.getNumExamples() < 0) {
      throw RemoteCall.fail(client, "FitRes has num_examples " + res.getNumExamples(), null);
    }
    OptionalDouble reported = metric(client, res.getMetricsMap(), "loss");
    // The loss's weight in the round's train_loss: its (bounded) examples, 0 when not reported.
    // What the client counts with: its claim, at most the round-relative bound (the runtime
    // applies the absolute one).
    long counted = Math.min(res.getNumExamples(), relativeMaxExamples);
    float weight = (float) Math.min(counted, maxExamples);
    float loss = reported.isPresent() ? (float) reported.getAsDouble() : 0f;
    if (reported.isPresent() && !(Math.abs((double) loss * weight) <= MAX_WEIGHTED_LOSS)) {
      // Left out of the metrics, as if not reported: a loss that is not finite in float32, or
      // so large that the round's float32 sum of weighted losses could overflow and refuse the
      // round's aggregate. The runtime checks the update itself.
      nonFiniteMetrics.incrementAndGet();
      reported = OptionalDouble.empty();
    }
    if (reported.isEmpty()) {
      loss = 0f;
      weight = 0f;
    }
    fitReports.record(client.id(), res.getNumExamples(), metricsWithout(client,
        res.getMetricsMap(), "loss"));
    List<Tensor> delta = client.isRelay() ? got : delta(got, ModelSpec.tensors(model));
    if (reportsNormBit) {
      return StructValue.named("delta", spec.value(delta), "num_examples",
          Tensor.ofLongs(Shape.scalar(), counted), "loss", Tensor.scalar(loss),
          "loss_weight", Tensor.scalar(weight), "norm_bit",
          Tensor.ofLongs(Shape.scalar(), normBit(client, res.getMetricsMap())));
    }
    return StructValue.named("delta", spec.value(delta), "num_examples",
        Tensor.ofLongs(Shape.scalar(), counted), "loss", Tensor.scalar(loss),
        "loss_weight", Tensor.scalar(weight));
  }

  /** The update a client's trained parameters make: {@code got - sent}, in the model's types. */
  public static List<Tensor> delta(List<Tensor> got, List<Tensor> sent) {
    List<Tensor> delta = new ArrayList<>(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      delta.add(TensorMath.subtract(got.get(i), sent.get(i)));
    }
    return delta;
  }

  /** The FitRes metric {@code norm_bit} as 0 or 1; a client without it fails. */
  private long normBit(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics) {
    io.tributary.flower.internal.proto.Scalar v = metrics.get("norm_bit");
    if (v == null) {
      throw RemoteCall.fail(client, "FitRes has no norm_bit metric, which client-side adaptive "
          + "clipping needs (Flower's adaptiveclipping_mod sends it)", null);
    }
    return switch (v.getScalarCase()) {
      case BOOL -> v.getBool() ? 1 : 0;
      case SINT64 -> v.getSint64() != 0 ? 1 : 0;
      case UINT64 -> v.getUint64() != 0 ? 1 : 0;
      case DOUBLE -> {
        if (Double.isNaN(v.getDouble())) {
          throw RemoteCall.fail(client, "FitRes metric norm_bit is NaN", null);
        }
        yield v.getDouble() != 0 ? 1 : 0;
      }
      default -> throw RemoteCall.fail(client, "FitRes metric norm_bit is not a bool or a "
          + "number", null);
    };
  }

  private Object runEvaluate(Object argument) {
    Dispatch.Answer answer = exchange(evaluateDispatch, argument,
        ClientMessage.MsgCase.EVALUATE_RES, this::evaluateIns);
    RemoteClient client = answer.client();
    ClientMessage.EvaluateRes res = answer.message().getEvaluateRes();
    RemoteCall.requireOk(client, res.getStatus(), "EvaluateRes");
    if (res.getNumExamples() < 0) {
      throw RemoteCall.fail(client, "EvaluateRes has num_examples " + res.getNumExamples(),
          null);
    }
    evaluateReports.record(client.id(), res.getNumExamples(), metricsWithout(client,
        res.getMetricsMap(), null));
    if (!Float.isFinite(res.getLoss())) {
      // Weight 0 leaves the loss out of the weighted mean; the round counts it.
      nonFiniteMetrics.incrementAndGet();
      return StructValue.named("loss", Tensor.scalar(0f), "num_examples",
          Tensor.ofLongs(Shape.scalar(), 0));
    }
    return StructValue.named("loss", Tensor.scalar(res.getLoss()), "num_examples",
        Tensor.ofLongs(Shape.scalar(), res.getNumExamples()));
  }

  /**
   * Asks one client for its parameters ({@code GetParametersIns}), as Flower's server does when
   * no initial parameters are given.
   *
   * @throws io.tributary.flower.server.RemoteClientException if the client fails to give them
   */
  public static List<Tensor> parametersOf(RemoteClient client, SerializerRegistry registry,
      Optional<Duration> timeout) {
    ServerMessage ins = ServerMessage.newBuilder().setGetParametersIns(
        ServerMessage.GetParametersIns.getDefaultInstance()).build();
    ClientMessage.GetParametersRes res = RemoteCall.ask(client, ins,
        ClientMessage.MsgCase.GET_PARAMETERS_RES, timeout).getGetParametersRes();
    RemoteCall.requireOk(client, res.getStatus(), "GetParametersRes");
    List<Tensor> tensors;
    try {
      tensors = ParametersWire.decode(registry, res.getParameters());
    } catch (SerializationException e) {
      throw RemoteCall.fail(client, "parameters do not decode: " + e.getMessage(), e);
    }
    Optional<String> nonFinite = io.tributary.tensor.Finite.problem(tensors, null);
    if (nonFinite.isPresent()) {
      throw RemoteCall.fail(client, "parameters are not finite: " + nonFinite.get(), null);
    }
    return tensors;
  }

  private RemoteClient client(String clientId) {
    return manager.get(clientId).orElseThrow(() ->
        new io.tributary.flower.server.ClientDisconnectedException(clientId,
            "the client left before the instruction was sent", null));
  }

  private io.tributary.flower.internal.proto.Parameters encode(RemoteClient client,
      StructValue model) {
    try {
      return encoder.encode(model, client.tensorType());
    } catch (SerializationException e) {
      throw RemoteCall.fail(client, "the model cannot be written as " + client.tensorType()
          + ": " + e.getMessage(), e);
    }
  }

  private List<Tensor> decode(RemoteClient client,
      io.tributary.flower.internal.proto.Parameters p) {
    List<Tensor> got;
    try {
      got = ParametersWire.decode(registry, p);
    } catch (SerializationException e) {
      throw RemoteCall.fail(client, "parameters (tensor_type '" + p.getTensorType()
          + "') do not decode: " + e.getMessage(), e);
    }
    String mismatch = spec.mismatch(got);
    if (mismatch != null) {
      throw RemoteCall.fail(client, "parameters do not fit the model: " + mismatch, null);
    }
    return got;
  }

  private static Map<String, Scalar> metricsWithout(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics, String left) {
    try {
      Map<String, Scalar> m = new java.util.TreeMap<>(ScalarCodec.fromProto(metrics));
      if (left != null) {
        m.remove(left);
      }
      return m;
    } catch (MalformedMessageException e) {
      throw RemoteCall.fail(client, "metrics: " + e.getMessage(), e);
    }
  }

  private static OptionalDouble metric(RemoteClient client,
      Map<String, io.tributary.flower.internal.proto.Scalar> metrics, String key) {
    try {
      Scalar s = ScalarCodec.fromProto(metrics).get(key);
      return s == null ? OptionalDouble.empty() : s.asDouble();
    } catch (MalformedMessageException e) {
      throw RemoteCall.fail(client, "metrics: " + e.getMessage(), e);
    }
  }
}
