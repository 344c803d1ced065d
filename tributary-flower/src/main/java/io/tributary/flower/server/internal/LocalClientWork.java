package io.tributary.flower.server.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.computation.Federated;
import io.tributary.core.computation.Intrinsics;
import io.tributary.core.types.FunctionType;
import io.tributary.core.types.Placement;
import io.tributary.core.types.StructType;
import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Array;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The server's client work run on the node itself: {@code flower_fit} and {@code
 * flower_evaluate} of exactly the names and types {@link RemoteClientWork} gives the server's
 * computations, whose instruction goes to a function of this process (the node's ClientApp)
 * rather than over the wire, and whose answer becomes the update as the server's {@link
 * FitResults} makes it. So the computation a node rebuilds over this work is the server's, and
 * the update its replay computes is the one the server would compute from the same answer.
 */
public final class LocalClientWork {
  private final LocalClient self;
  private final ParameterCodec codec;
  private final FitResults fitResults;
  private final EvaluateResults evaluateResults = new EvaluateResults();
  private final Map<String, Scalar> fitConfig;
  private final Map<String, Scalar> evaluateConfig;

  /**
   * @param nodeId the node's id, as its failures name it
   * @param spec the model's spec
   * @param signals what the aggregator reads from each client
   * @param maxExamples the server's bound on a client's example count
   * @param fitConfig the round's fit config
   * @param evaluateConfig the round's evaluate config
   * @param node answers an instruction ({@code FitIns}, {@code EvaluateIns}) in this process
   */
  public LocalClientWork(String nodeId, ModelSpec spec, ClientSignals signals, long maxExamples,
      SerializerRegistry registry, Map<String, Scalar> fitConfig,
      Map<String, Scalar> evaluateConfig, java.util.function.Function<ServerMessage, ClientMessage> node) {
    this(nodeId, spec, signals, maxExamples, registry, fitConfig, evaluateConfig,
        (client, ins) -> node.apply(ins));
  }

  /**
   * Work whose instructions go to the client the invocation names: {@code nodes} answers an
   * instruction to a client, given the client's value (its id), so that one process holds the
   * work of several nodes (a simulation of a server's nodes, such as a parity test's).
   */
  public LocalClientWork(String nodeId, ModelSpec spec, ClientSignals signals, long maxExamples,
      SerializerRegistry registry, Map<String, Scalar> fitConfig,
      Map<String, Scalar> evaluateConfig,
      java.util.function.BiFunction<String, ServerMessage, ClientMessage> nodes) {
    this.self = new LocalClient(nodeId, nodes);
    this.codec = new ParameterCodec(registry, spec);
    this.fitResults = new FitResults(codec, signals, maxExamples);
    this.fitConfig = Map.copyOf(fitConfig);
    this.evaluateConfig = Map.copyOf(evaluateConfig);
  }

  /**
   * {@code flower_fit: (<model=M,data=string> -> U)}, as {@link RemoteClientWork#fit}. The
   * example count is bounded by the absolute bound only: the server's round-relative bound (from
   * the previous round's median) is not sent to a node yet, so the server applies it.
   */
  public Computation fit() {
    return Federated.local("flower_fit", FunctionType.of(
        StructType.named("model", codec.spec().type(), "data", RemoteClientWork.CLIENT_ID),
        fitResults.updateType()), a -> {
          StructValue model = (StructValue) ((StructValue) a).get(0);
          ServerMessage ins = ServerMessage.newBuilder().setFitIns(ServerMessage.FitIns
              .newBuilder().setParameters(codec.encode(self, model))
              .putAllConfig(ScalarCodec.toProto(fitConfig))).build();
          ClientMessage answer = self.answer(client(a), ins, ClientMessage.MsgCase.FIT_RES);
          return fitResults.update(self, answer.getFitRes(), model, Long.MAX_VALUE);
        });
  }

  /** {@code flower_evaluate}, as {@link RemoteClientWork#evaluation}. */
  public Computation evaluation() {
    return Federated.local("flower_evaluate", FunctionType.of(
        StructType.named("model", codec.spec().type(), "data", RemoteClientWork.CLIENT_ID),
        EvaluateResults.TYPE), a -> {
          StructValue model = (StructValue) ((StructValue) a).get(0);
          ServerMessage ins = ServerMessage.newBuilder().setEvaluateIns(ServerMessage
              .EvaluateIns.newBuilder().setParameters(codec.encode(self, model))
              .putAllConfig(ScalarCodec.toProto(evaluateConfig))).build();
          ClientMessage answer = self.answer(client(a), ins,
              ClientMessage.MsgCase.EVALUATE_RES);
          return evaluateResults.evaluation(self, answer.getEvaluateRes());
        });
  }

  /** The client's value (its id) in the argument of {@code flower_fit} or {@code flower_evaluate}. */
  private static String client(Object argument) {
    return ((io.tributary.tensor.Tensor) ((StructValue) argument).get(1)).getString(0);
  }

  /**
   * {@code ( -> <model=M>@SERVER)} of the type {@link RemoteClientWork#initialize} has, which a
   * node never runs: the server's state arrives with its pass, and the model is not allocated
   * from a type a server sent.
   */
  public Computation initialize() {
    Computation model = Federated.local("initial_parameters", FunctionType.noParameter(
        StructType.named("model", codec.spec().type())), x -> {
          throw new IllegalStateException("a node does not initialize the model: the server's "
              + "state arrives with its pass");
        });
    return Federated.computation(() -> Intrinsics.federatedEval(model, Placement.SERVER));
  }

  /** The node as the server's result decoding sees a client: answered in this process. */
  private record LocalClient(String id,
      java.util.function.BiFunction<String, ServerMessage, ClientMessage> node)
      implements RemoteClient {
    ClientMessage answer(String client, ServerMessage ins, ClientMessage.MsgCase expected) {
      ClientMessage m = node.apply(client, ins);
      if (m == null || m.getMsgCase() != expected) {
        throw RemoteCall.fail(this, "answered " + (m == null ? "nothing" : m.getMsgCase())
            + " to " + ins.getMsgCase() + ", not " + expected, null);
      }
      return m;
    }

    @Override
    public String tensorType() {
      return Array.NUMPY;
    }

    @Override
    public boolean isClosed() {
      return false;
    }

    @Override
    public CompletableFuture<ClientMessage> request(ServerMessage message,
        Optional<Duration> timeout) {
      // Instructions go to the node's function directly (answer), never over a connection.
      return CompletableFuture.failedFuture(new UnsupportedOperationException(
          "a node's own work is not sent instructions"));
    }

    @Override
    public void abandon(CompletableFuture<ClientMessage> f, String why) {}

    @Override
    public void finish() {}
  }
}
