package io.tributary.flower.server.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.types.TensorType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializationException;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * The client work of the server's federated computations, as Java functions whose client value D
 * is the client's id ({@code string}): {@code flower_fit} sends FitIns and turns the FitRes into
 * the client update that carries what the aggregator reads ({@link ClientSignals}: {@code
 * <delta=M,num_examples=int64,loss=float32,loss_weight=float32>}, weight 0 when the client
 * reported no usable {@code loss} metric, then {@code norm_bit=int64} when the aggregator
 * declares it); {@code flower_evaluate} sends EvaluateIns and gives {@code
 * <loss=float32,num_examples=int64>}.
 *
 * <p>What changes from round to round is not kept here: the round host makes a {@link FitRound}
 * or {@link EvaluateRound} for each invocation and opens it ({@link #open(FitRound, boolean)}),
 * and the functions read the open one. FitRes decoding is {@link FitResults}', EvaluateRes
 * decoding {@link EvaluateResults}', and a secure round's stand-ins {@link SecureCohort}'s.
 *
 * <p>Anything wrong with one client's answer throws a {@link
 * io.tributary.flower.server.RemoteClientException} naming the client, which the runtime turns
 * into that client's failure.
 */
public final class RemoteClientWork {
  /** D: a client is known to the computations by its id. */
  public static final TensorType CLIENT_ID = TensorType.of(DType.STRING);

  /** An open invocation: its round and, when its instructions go at once, their dispatch. */
  private record Open<R>(R round, Optional<Dispatch> dispatch) {}

  private final ClientManager manager;
  private final ParameterCodec codec;
  private final Optional<Duration> timeout;
  private final FitResults fitResults;
  private final EvaluateResults evaluateResults = new EvaluateResults();
  private final AtomicReference<Open<FitRound>> fit = new AtomicReference<>();
  private final AtomicReference<Open<EvaluateRound>> evaluate = new AtomicReference<>();

  /**
   * @param maxExamples the bound on the example count a client is weighted with (the runtime's
   *     weight bound), which also bounds the weight of its loss
   * @param signals what the round reads from each client, as the aggregator declares it
   */
  public RemoteClientWork(ClientManager manager, ParameterCodec codec,
      Optional<Duration> timeout, long maxExamples, ClientSignals signals) {
    this.manager = manager;
    this.codec = codec;
    this.timeout = timeout;
    this.fitResults = new FitResults(codec, signals, maxExamples);
  }

  /**
   * The secure round over the Flower transport that {@code protocol} runs with {@code options},
   * for a {@link SecureCohort}.
   */
  public SecureFit secureRound(SecureAggregation options, SecureFitProtocol protocol) {
    return new SecureRound(protocol, options, timeout, codec::encode);
  }

  /**
   * The secure-aggregation protocol on the class path ({@link java.util.ServiceLoader}), the
   * first found, for a caller outside the server that aggregates its clients securely (a relay).
   *
   * @throws FlowerServerException when there is none
   */
  public static SecureFitProtocol secureProtocol() throws FlowerServerException {
    return SecureRound.protocol();
  }

  /**
   * Makes {@code round} the fit invocation the next {@link #fit} calls belong to, until the
   * returned handle is closed. With {@code dispatchAtOnce}, the invocation's first client
   * function sends every client's FitIns at once ({@link Dispatch}), for an invocation with one
   * model; otherwise each function asks its own client. A secure round talks to its clients
   * itself, stage by stage.
   */
  public Invocation open(FitRound round, boolean dispatchAtOnce) {
    Optional<Dispatch> d = Optional.empty();
    if (round.secure().isEmpty() && dispatchAtOnce) {
      d = Optional.of(new Dispatch(ServerMessage.MsgCase.FIT_INS, round.clients(),
          (c, m) -> fitIns(c, m, round.config()), timeout));
    }
    return install(fit, new Open<>(round, d));
  }

  /** Like {@link #open(FitRound, boolean)}, for an evaluate invocation. */
  public Invocation open(EvaluateRound round, boolean dispatchAtOnce) {
    Optional<Dispatch> d = dispatchAtOnce
        ? Optional.of(new Dispatch(ServerMessage.MsgCase.EVALUATE_INS, round.clients(),
            (c, m) -> evaluateIns(c, m, round.config()), timeout))
        : Optional.empty();
    return install(evaluate, new Open<>(round, d));
  }

  /** An open invocation; closing it ends its dispatch and forgets it. */
  @FunctionalInterface
  public interface Invocation extends AutoCloseable {
    @Override
    void close();
  }

  private <R> Invocation install(AtomicReference<Open<R>> slot, Open<R> open) {
    if (!slot.compareAndSet(null, open)) {
      throw new IllegalStateException("an invocation of the same kind is already open");
    }
    return () -> {
      slot.compareAndSet(open, null);
      open.dispatch().ifPresent(d -> {
        try {
          d.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    };
  }

  /**
   * The round's client metrics, each aggregated as {@code how} says (by default the mean weighted
   * by examples) over the clients whose results the round used: FitRes metrics as {@code
   * fit_NAME} (but {@code loss}, which is the round's {@code client_loss}), EvaluateRes metrics as
   * {@code evaluate_NAME}; the median example count of the fit reports; and a fresh start for the
   * next round.
   *
   * @param failedFit the ids of the clients whose fit failed
   * @param failedEvaluate the ids of the clients whose evaluation failed
   */
  public RoundReports drainClientMetrics(Set<String> failedFit, Set<String> failedEvaluate,
      Map<String, MetricAggregation> how) {
    long median = fitResults.reports().medianExamples(failedFit);
    SortedMap<String, Double> out = fitResults.reports().drain("fit_", failedFit, how);
    out.putAll(evaluateResults.reports().drain("evaluate_", failedEvaluate, how));
    return new RoundReports(out, median);
  }

  /**
   * What the clients reported beside the round computation in one round.
   *
   * @param metrics the aggregated free-form metrics, by name
   * @param medianExamples the median example count of the fit reports used (the lower middle of
   *     an even count), -1 when there is none
   */
  public record RoundReports(SortedMap<String, Double> metrics, long medianExamples) {}

  /**
   * The client metrics and losses found NaN or infinite since the last call, and a fresh count:
   * such a metric is left out of the round's aggregate metrics, and counted here.
   */
  public int drainNonFiniteMetrics() {
    return fitResults.drainNonFinite() + evaluateResults.drainNonFinite();
  }

  /** The value of D for a client. */
  public static Tensor clientValue(String clientId) {
    return Tensor.ofStrings(Shape.scalar(), clientId);
  }

  /** {@code flower_fit: (<model=M,data=string> -> U)}, U the update of the declared signals. */
  public Computation fit() {
    return Federated.local("flower_fit", FunctionType.of(
        StructType.named("model", codec.spec().type(), "data", CLIENT_ID),
        fitResults.updateType()), a -> runFit((StructValue) a));
  }

  /** {@code flower_evaluate: (<model=M,data=string> -> <loss=float32,num_examples=int64>)}. */
  public Computation evaluation() {
    return Federated.local("flower_evaluate", FunctionType.of(
        StructType.named("model", codec.spec().type(), "data", CLIENT_ID),
        EvaluateResults.TYPE), a -> runEvaluate((StructValue) a));
  }

  /** {@code ( -> <model=M>@SERVER)}, the process's first state: the given tensors. */
  public static Computation initialize(ModelSpec spec, List<Tensor> initial) {
    StructValue value = spec.value(initial);
    Computation model = Federated.local("initial_parameters", FunctionType.noParameter(
        StructType.named("model", spec.type())), x -> StructValue.named("model", value));
    return Federated.computation(() -> Intrinsics.federatedEval(model, Placement.SERVER));
  }

  private Object runFit(StructValue argument) {
    Open<FitRound> open = opened(fit, "flower_fit");
    FitRound r = open.round();
    StructValue model = (StructValue) argument.get(0);
    String id = ((Tensor) argument.get(1)).getString(0);
    if (r.secure().isPresent()) {
      // The secure round tells the progress of its own stages and clients.
      return r.secure().get().update(r, id, model, fitResults);
    }
    return told(r.round(), id, r.progress(), () -> {
      Dispatch.Answer answer = exchange(open.dispatch(), model, id,
          ClientMessage.MsgCase.FIT_RES, (c, m) -> fitIns(c, m, r.config()));
      return fitResults.update(answer.client(), answer.message().getFitRes(), model,
          r.relativeMaxExamples());
    });
  }

  private Object runEvaluate(StructValue argument) {
    Open<EvaluateRound> open = opened(evaluate, "flower_evaluate");
    EvaluateRound r = open.round();
    StructValue model = (StructValue) argument.get(0);
    String id = ((Tensor) argument.get(1)).getString(0);
    return told(r.round(), id, r.progress(), () -> {
      Dispatch.Answer answer = exchange(open.dispatch(), model, id,
          ClientMessage.MsgCase.EVALUATE_RES, (c, m) -> evaluateIns(c, m, r.config()));
      return evaluateResults.evaluation(answer.client(), answer.message().getEvaluateRes());
    });
  }

  private static <R> Open<R> opened(AtomicReference<Open<R>> slot, String what) {
    Open<R> open = slot.get();
    if (open == null) {
      throw new IllegalStateException(what + " runs only within an open invocation");
    }
    return open;
  }

  /** Runs one client's work, telling {@code progress} that it answered or why it failed. */
  private static Object told(int round, String id, RoundProgress progress,
      java.util.function.Supplier<Object> work) {
    if (progress == RoundProgress.NONE) {
      return work.get();
    }
    Object out;
    try {
      out = work.get();
    } catch (RuntimeException e) {
      progress.clientFailed(round, id, String.valueOf(e.getMessage()));
      throw e;
    }
    progress.clientReported(round, id);
    return out;
  }

  private ServerMessage fitIns(RemoteClient client, StructValue model,
      Map<String, io.tributary.flower.Scalar> config) {
    return ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns.newBuilder()
        .setParameters(codec.encode(client, model)).putAllConfig(ScalarCodec.toProto(config)))
        .build();
  }

  private ServerMessage evaluateIns(RemoteClient client, StructValue model,
      Map<String, io.tributary.flower.Scalar> config) {
    return ServerMessage.newBuilder().setEvaluateIns(ServerMessage.EvaluateIns.newBuilder()
        .setParameters(codec.encode(client, model)).putAllConfig(ScalarCodec.toProto(config)))
        .build();
  }

  /** The client's answer: from the invocation's dispatch, or asked for here if not in it. */
  private Dispatch.Answer exchange(Optional<Dispatch> dispatch, StructValue model, String id,
      ClientMessage.MsgCase expected, BiFunction<RemoteClient, StructValue, ServerMessage> ins) {
    if (dispatch.isPresent()) {
      Optional<Dispatch.Answer> answer = dispatch.get().await(id, model, expected);
      if (answer.isPresent()) {
        return answer.get();
      }
    }
    RemoteClient client = client(id);
    return new Dispatch.Answer(client, RemoteCall.ask(client, ins.apply(client, model), expected,
        timeout));
  }

  /** The update a client's trained parameters make: {@code got - sent}, in the model's types. */
  public static List<Tensor> delta(List<Tensor> got, List<Tensor> sent) {
    return FitResults.delta(got, sent);
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
}
