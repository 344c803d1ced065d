package io.tributary.flower.passes;

import io.tributary.flower.Scalar;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.fleet.server.internal.MessageApi;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.records.Message;
import io.tributary.flower.server.ClientResultException;
import io.tributary.flower.server.internal.LocalClientWork;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.learning.AlgorithmRegistry;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.Topology;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeSet;

/**
 * Rebuilds, on a Java node, the learning process a Flower server runs, from the {@link
 * ComputationSpec} the server sent: the algorithm from the registry (name and hyperparameters)
 * or, for one composed in code, the node's own algorithm of that name; the model's type; and
 * the round's fit and evaluate configs; with {@code flower_fit} and {@code flower_evaluate}
 * bound to the node's own {@link ClientApp}. The rebuild is the server's computation when its
 * {@link ComputationFingerprint} equals the one the server sent, and is refused otherwise.
 *
 * <pre>{@code
 * NodeComputation node = NodeComputation.builder().build();  // the installed registry
 * ComputationSpec spec = ComputationSpec.fromConfig(message.content().configRecords()
 *     .get("config").values());
 * LearningProcess process = node.rebuild(spec, fitConfig, evaluateConfig, app, context);
 * }</pre>
 *
 * <p>The node's {@code flower_fit} has the server's name and type, sends its ClientApp the
 * {@code train} message the server's Fleet layer would send (the model as {@code arrays}, the fit
 * config as {@code config}), and turns the reply into the client update exactly as the server
 * turns a node's reply into one (delta, example count bounded by {@link
 * ComputationSpec#maxExamples}, loss and its weight, and what the aggregator declares). A node
 * that rebuilds can run the server's client passes: {@link #advertisedBy} makes its app state
 * so ({@link ClientPasses}).
 */
public final class NodeComputation {
  private final AlgorithmRegistry registry;
  private final Map<String, FederatedAlgorithm> composed;
  private final SerializerRegistry serializers;

  private NodeComputation(Builder b) {
    this.registry = b.registry;
    this.composed = Map.copyOf(b.composed);
    this.serializers = b.serializers;
  }

  /** A builder over the installed algorithm registry and serializers. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The algorithm {@code spec} names: the registry's, built from its hyperparameters (every one
   * of the spec's, each in range), or the one composed in code this node holds under the name.
   *
   * @throws ComputationSpecException naming the key when the name is unknown, a hyperparameter
   *     is missing, not the algorithm's or out of range, or the algorithm aggregates through edges
   */
  public FederatedAlgorithm algorithm(ComputationSpec spec) throws ComputationSpecException {
    FederatedAlgorithm a;
    if (spec.registered()) {
      if (!registry.contains(spec.algorithm())) {
        throw new ComputationSpecException(ComputationSpec.ALGORITHM, "unknown algorithm '"
            + spec.algorithm() + "'; this node's registry knows " + String.join(", ",
                registry.descriptions().keySet()));
      }
      SequencedMap<String, Double> takes = registry.defaults(spec.algorithm());
      for (String k : spec.hyperparameters().keySet()) {
        if (!takes.containsKey(k)) {
          throw new ComputationSpecException(ComputationSpec.HYPERPARAMETER_PREFIX + k,
              spec.algorithm() + " has no such hyperparameter; it takes "
                  + (takes.isEmpty() ? "none" : String.join(", ", takes.keySet())));
        }
      }
      for (String k : takes.keySet()) {
        if (!spec.hyperparameters().containsKey(k)) {
          // Every value travels: a default of the node's version may not be the server's.
          throw new ComputationSpecException(ComputationSpec.HYPERPARAMETER_PREFIX + k,
              "missing: the server sends every hyperparameter of " + spec.algorithm());
        }
      }
      try {
        a = registry.build(spec.algorithm(), spec.hyperparameters());
      } catch (IllegalArgumentException e) {
        throw new ComputationSpecException(null, e.getMessage(), e);
      }
    } else {
      a = composed.get(spec.algorithm());
      if (a == null) {
        throw new ComputationSpecException(ComputationSpec.ALGORITHM, "this node holds no "
            + "algorithm composed in code named '" + spec.algorithm() + "' (it holds "
            + (composed.isEmpty() ? "none" : String.join(", ", new TreeSet<>(composed.keySet())))
            + "); an algorithm composed in code runs only where code gives it");
      }
    }
    if (!(a.topology() instanceof Topology.Flat)) {
      throw new ComputationSpecException(ComputationSpec.ALGORITHM, spec.algorithm()
          + " aggregates through edges, which a server's round does not have");
    }
    return a;
  }

  /**
   * The server's learning process as {@code spec} describes it, with {@code flower_fit} and
   * {@code flower_evaluate} bound to {@code app} (sent {@code fitConfig} and {@code
   * evaluateConfig}, run in {@code context}), checked against the spec's fingerprint.
   *
   * @throws ComputationSpecException when the spec names no algorithm this node can build, or
   *     the algorithm cannot take the model's type
   * @throws FingerprintMismatchException when the rebuilt process is not the server's
   */
  public LearningProcess rebuild(ComputationSpec spec, Map<String, Scalar> fitConfig,
      Map<String, Scalar> evaluateConfig, ClientApp app, Context context)
      throws NodeComputationException {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(context, "context");
    String id = "node-" + Long.toUnsignedString(context.nodeId());
    return rebuild(spec, fitConfig, evaluateConfig, id, ins -> answer(app, context, id, ins));
  }

  /**
   * As {@link #rebuild(ComputationSpec, Map, Map, ClientApp, Context)}, with {@code flower_fit}
   * and {@code flower_evaluate} bound to {@code answer}, which answers each instruction as the
   * node's client (a Join client's {@code FlowerClient}, as its stream would), named {@code id}.
   */
  LearningProcess rebuild(ComputationSpec spec, Map<String, Scalar> fitConfig,
      Map<String, Scalar> evaluateConfig, String id,
      java.util.function.Function<ServerMessage, ClientMessage> answer)
      throws NodeComputationException {
    FederatedAlgorithm algorithm = algorithm(spec);
    ModelSpec model = new ModelSpec(spec.modelType());
    LearningProcess process;
    try {
      ClientSignals signals = algorithm.aggregator().create(model.type()).clientSignals();
      LocalClientWork work = new LocalClientWork(id, model, signals, spec.maxExamples(),
          serializers, fitConfig, evaluateConfig, answer);
      process = algorithm.process(work.initialize(), work.fit(), work.evaluation());
    } catch (IllegalArgumentException e) {
      throw new ComputationSpecException(ComputationSpec.MODEL_TYPE, spec.algorithm()
          + " cannot run on this model: " + e.getMessage(), e);
    }
    ComputationFingerprint rebuilt = ComputationFingerprint.of(process);
    if (!rebuilt.equals(spec.fingerprint())) {
      throw new FingerprintMismatchException(spec.algorithm(), spec.fingerprint(), rebuilt);
    }
    return process;
  }

  /** The serializers the model travels in to the node's client. */
  SerializerRegistry serializers() {
    return serializers;
  }

  /** {@code app} stating that this node runs client passes ({@link ClientPasses}). */
  public ClientApp advertisedBy(ClientApp app) {
    return app.withCapabilities(ClientPasses.capabilities());
  }

  /** The app's answer to {@code ins}, through the server's Fleet message layout. */
  private ClientMessage answer(ClientApp app, Context context, String id, ServerMessage ins) {
    Message reply;
    try {
      Message m = new MessageApi(serializers).instruction(ins, context.runId(),
          context.nodeId(), MessageApi.DEFAULT_TTL);
      reply = app.handle(m, context);
      return MessageApi.answer(ins.getMsgCase(), reply);
    } catch (MessageApi.BadReply e) {
      throw new ClientResultException(id, e.getMessage(), e);
    }
  }

  /** Configures a {@link NodeComputation}. */
  public static final class Builder {
    private AlgorithmRegistry registry = AlgorithmRegistry.installed();
    private final Map<String, FederatedAlgorithm> composed = new LinkedHashMap<>();
    private SerializerRegistry serializers = SerializerRegistry.load();

    private Builder() {}

    /** The registry the node builds named algorithms from; the installed one by default. */
    public Builder registry(AlgorithmRegistry r) {
      this.registry = Objects.requireNonNull(r, "registry");
      return this;
    }

    /**
     * An algorithm composed in code (such as FedAvg with {@code DpAggregator.withSecureSum}),
     * which a server naming it by {@link FederatedAlgorithm#name} with {@value
     * ComputationSpec#REGISTERED} false runs on this node.
     *
     * @throws IllegalArgumentException when another is already held under the name
     */
    public Builder algorithm(FederatedAlgorithm a) {
      if (composed.putIfAbsent(a.name(), a) != null) {
        throw new IllegalArgumentException("an algorithm named '" + a.name()
            + "' is already held");
      }
      return this;
    }

    /**
     * Every algorithm the {@link ComposedAlgorithms} on {@code loader}'s class path ({@link
     * java.util.ServiceLoader}) return, each as {@link #algorithm} adds it.
     *
     * @throws IllegalArgumentException naming the provider when one does not load, fails,
     *     returns null, or gives a name that another algorithm already has
     */
    public Builder composedFrom(ClassLoader loader) {
      java.util.List<ComposedAlgorithms> providers = new java.util.ArrayList<>();
      try {
        java.util.ServiceLoader.load(ComposedAlgorithms.class, loader).forEach(providers::add);
      } catch (java.util.ServiceConfigurationError e) {
        throw new IllegalArgumentException("a " + ComposedAlgorithms.class.getSimpleName()
            + " provider does not load: " + e.getMessage(), e);
      }
      for (ComposedAlgorithms p : providers) {
        String name = p.getClass().getName();
        java.util.List<FederatedAlgorithm> given;
        try {
          given = p.algorithms();
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(name + ".algorithms() failed: " + e, e);
        }
        if (given == null) {
          throw new IllegalArgumentException(name + ".algorithms() returned null");
        }
        for (FederatedAlgorithm a : given) {
          if (a == null) {
            throw new IllegalArgumentException(name + ".algorithms() holds null");
          }
          try {
            algorithm(a);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
          }
        }
      }
      return this;
    }

    /** The serializers the model travels in to the app; those on the class path by default. */
    public Builder serializers(SerializerRegistry s) {
      this.serializers = Objects.requireNonNull(s, "serializers");
      return this;
    }

    public NodeComputation build() {
      return new NodeComputation(this);
    }
  }
}
