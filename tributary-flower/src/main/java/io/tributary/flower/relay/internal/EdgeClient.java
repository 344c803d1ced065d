package io.tributary.flower.relay.internal;

import io.tributary.core.computation.Computation;
import io.tributary.core.values.StructValue;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.flower.relay.RelayConfig;
import io.tributary.flower.server.NotEnoughClientsException;
import io.tributary.flower.server.RemoteClientException;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.flower.server.ServerMemory;
import io.tributary.flower.server.internal.ClientManager;
import io.tributary.flower.server.internal.EvaluateRound;
import io.tributary.flower.server.internal.FitRound;
import io.tributary.flower.server.internal.ModelSpec;
import io.tributary.flower.server.internal.ParameterCodec;
import io.tributary.flower.server.internal.RemoteClient;
import io.tributary.flower.server.internal.RemoteClientWork;
import io.tributary.flower.server.internal.SecureCohort;
import io.tributary.flower.server.internal.SecureFit;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.learning.rounds.RoundProgress;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.runtime.Outcome;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A relay as its server sees it: one Flower client whose fit is k2 edge rounds over the relay's
 * clients as one edge (hierarchical FedAvg's, {@code HierarchicalFedAvg.edgeRounds}), answered
 * with the edge's update (with k2 = 1, its clients' example-weighted mean update) and its
 * clients' examples in the last edge round, and
 * whose evaluation is the edge's example-weighted mean loss.
 *
 * <p>Each instruction from the server becomes one invocation of an {@link EdgeComputations}
 * computation on the runtime, over the clients connected when it arrives (in the order they
 * joined); the instruction's config goes to every client as it came. What goes wrong inside the
 * edge (too few clients, too many failures) fails the instruction with a
 * {@link FlowerClientException}, which the server sees as this relay's failure.
 *
 * <p>With {@link RelayConfig#secureAggregation()}, each edge round's fit is one SecAgg+ round
 * among the clients, run by the server's secure path ({@link RemoteClientWork#secureRound} as a
 * {@link SecureCohort} of one stand-in, {@link SecureCohort.Form#WHOLE}): the edge
 * rounds' weighted mean is then over that one aggregated update, and the relay sees only the
 * edge's sum and total examples.
 */
public final class EdgeClient implements FlowerClient {
  private static final Logger LOG = LoggerFactory.getLogger(EdgeClient.class);
  /** The runtime's own limit on a client lies this far behind the instruction timeout. */
  private static final Duration BACKSTOP = Duration.ofSeconds(1);

  private final ClientManager manager;
  private final SerializerRegistry registry;
  private final RelayConfig config;
  /** The SecAgg+ protocol of every edge round; null for plain aggregation. */
  private final SecureFitProtocol secure;
  /** The fewer workers last logged; 0 before any. */
  private volatile int loggedWorkers;

  /**
   * @param config the relay's settings; at most {@link ServerMemory#workers} of its memory fold
   *     a round's answers, so that their partial sums fit it
   * @param secure the protocol for {@link RelayConfig#secureAggregation()}; null when it is
   *     empty
   */
  public EdgeClient(ClientManager manager, SerializerRegistry registry, RelayConfig config,
      SecureFitProtocol secure) {
    if ((secure == null) != config.secureAggregation().isEmpty()) {
      throw new IllegalArgumentException("a secure protocol goes with secure aggregation");
    }
    this.manager = manager;
    this.registry = registry;
    this.config = config;
    this.secure = secure;
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> ignored) throws FlowerClientException {
    List<RemoteClient> clients = clients();
    try {
      return RemoteClientWork.parametersOf(clients.get(0), registry, config.roundTimeout());
    } catch (RemoteClientException e) {
      throw new FlowerClientException("the edge's client " + e.clientId()
          + " gave no parameters: " + e.getMessage(), e);
    }
  }

  @Override
  public FitRes fit(FitIns ins) throws FlowerClientException {
    if (ins.config().keySet().stream().anyMatch(k -> k.startsWith("secagg_"))) {
      // SecAgg+ stages address each client by its keys: a relay cannot stand in for its clients.
      throw new FlowerClientException("a relay cannot take part in a secure aggregation round");
    }
    ModelSpec spec = spec(ins.parameters());
    List<RemoteClient> clients = clients();
    RemoteClientWork work = work(spec);
    // The instruction's config goes to the clients as it came (with server_round 0 unless it
    // has one); each edge round asks each client itself, as its model changes between them.
    Map<String, Scalar> fitConfig = FitRound.config(Map.of(), ins.config(), 0);
    Optional<SecureFit> secureRound = Optional.ofNullable(secure)
        .map(p -> work.secureRound(config.secureAggregation().get(), p));
    FitRound round = new FitRound(0, clients, fitConfig, Long.MAX_VALUE, RoundProgress.NONE,
        secureRound.map(s -> new SecureCohort(s, SecureCohort.Form.WHOLE)));
    Outcome o;
    try (RemoteClientWork.Invocation unused = work.open(round, false)) {
      o = invoke(EdgeComputations.fit(work.fit(), spec.type(), config.edgeRounds()),
          spec, ins.parameters(), clients, round.cohort(), "fit", true);
    }
    StructValue r = (StructValue) o.value();
    // The relay's clients are one edge: its values are the one member of each EDGES list.
    List<Tensor> delta = ModelSpec.tensors((StructValue) ((List<?>) r.get(0)).get(0));
    long examples = ((Tensor) ((List<?>) r.get(1)).get(0)).getLong(0);
    if (examples < 0) {
      throw new FlowerClientException("the edge's example count overflows int64");
    }
    double lossSum = ((Tensor) r.get(2)).getAsDouble(0);
    double lossWeight = ((Tensor) r.get(3)).getAsDouble(0);
    Map<String, Scalar> metrics = new LinkedHashMap<>();
    if (lossWeight > 0 && Double.isFinite(lossSum / lossWeight)) {
      metrics.put("loss", Scalar.of(lossSum / lossWeight));
    }
    if (secure != null) {
      // The cohort was one stand-in; the clients left out are the secure round's exclusions.
      List<String> exclusions = secureRound.get().exclusions();
      int excluded = exclusions.size();
      exclusions.forEach(x -> LOG.warn("edge fit: {}", x));
      metrics.put("edge_clients", Scalar.of((long) (clients.size() - excluded)));
      metrics.put("edge_failures", Scalar.of((long) excluded));
    } else {
      metrics.put("edge_clients", Scalar.of((long) (o.report().clients()
          - o.report().failedClients().size())));
      metrics.put("edge_failures", Scalar.of((long) o.report().failedClients().size()));
    }
    return new FitRes(delta, examples, metrics);
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
    ModelSpec spec = spec(ins.parameters());
    List<RemoteClient> clients = clients();
    RemoteClientWork work = work(spec);
    Outcome o;
    try (RemoteClientWork.Invocation unused = work.open(new EvaluateRound(0, clients,
        ins.config(), RoundProgress.NONE), false)) {
      o = invoke(EdgeComputations.evaluate(work.evaluation(), spec.type()), spec,
          ins.parameters(), clients, ids(clients), "evaluate", false);
    }
    StructValue r = (StructValue) o.value();
    return new EvaluateRes(((Tensor) r.get(0)).getFloat(0), ((Tensor) r.get(1)).getLong(0),
        Map.of("edge_clients", Scalar.of((long) (o.report().clients()
            - o.report().failedClients().size()))));
  }

  private RemoteClientWork work(ModelSpec spec) {
    // A relay answers one round at a time with no memory of the last, so its clients have no
    // round-relative example bound (the rounds' Long.MAX_VALUE); the server applies its own to
    // the edge's total. The edge's mean reads each client's weight and loss.
    return new RemoteClientWork(manager, new ParameterCodec(registry, spec),
        config.roundTimeout(), config.maxExamplesPerClient(), ClientSignals.DEFAULT);
  }

  private static ModelSpec spec(List<Tensor> parameters) throws FlowerClientException {
    try {
      return ModelSpec.of(parameters);
    } catch (IllegalArgumentException e) {
      throw new FlowerClientException("the server's parameters are unusable: " + e.getMessage(),
          e);
    }
  }

  /** The edge's clients now, waiting for the minimum. */
  private List<RemoteClient> clients() throws FlowerClientException {
    try {
      return manager.waitFor(config.minClients(), config.clientWait());
    } catch (NotEnoughClientsException e) {
      throw new FlowerClientException("the edge has too few clients: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlowerClientException("interrupted while waiting for the edge's clients", e);
    }
  }

  private Outcome invoke(Computation c, ModelSpec spec, List<Tensor> parameters,
      List<RemoteClient> clients, List<Tensor> ids, String what, boolean asEdge)
      throws FlowerClientException {
    int workers = workers(parameters);
    RuntimeOptions options = asEdge
        ? options(config, workers, secure == null ? 1 : secure.exchanges())
            .withEdges(io.tributary.runtime.Edges.contiguous(ids.size()))
        : options(config, workers, 1);
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      Outcome o = ctx.invokeWithReport(c, spec.value(parameters), ids);
      for (ClientFailure f : o.report().failures()) {
        LOG.warn("edge {}: client {} left out: {}", what,
            asEdge && secure != null ? "of the secure round" : clients.get(f.client()).id(),
            f.describe());
      }
      return o;
    } catch (ExecutionFailedException e) {
      throw new FlowerClientException("the edge's " + what + " failed: " + e.getMessage(), e);
    }
  }

  private static List<Tensor> ids(List<RemoteClient> clients) {
    List<Tensor> ids = new ArrayList<>(clients.size());
    clients.forEach(x -> ids.add(RemoteClientWork.clientValue(x.id())));
    return ids;
  }

  /**
   * The workers for a model of these parameters, logged when fewer than the configuration's
   * (once for each new count).
   */
  private int workers(List<Tensor> parameters) {
    ServerMemory memory = config.memory();
    int workers = workers(memory, config.maxConcurrentClients(), parameters);
    if (workers < config.maxConcurrentClients() && workers != loggedWorkers) {
      loggedWorkers = workers;
      LOG.info("{} workers fold the edge's answers, not {}: the partial sums of more would not "
          + "fit a quarter of the relay's {} MiB of memory", workers,
          config.maxConcurrentClients(), memory.maxMemory() >> 20);
    }
    return workers;
  }

  /**
   * The workers that fold the answers for a model of these parameters: {@code cap}, or fewer
   * where their partial sums would not fit a quarter of {@code memory} ({@link
   * ServerMemory#workers}).
   */
  static int workers(ServerMemory memory, int cap, List<Tensor> parameters) {
    long elements = 0;
    for (Tensor t : parameters) {
      elements += t.shape().size();
    }
    return memory.workers(elements, cap);
  }

  /**
   * The edge's runtime options: {@code workers} workers, {@code exchanges} exchanges with each
   * client.
   */
  static RuntimeOptions options(RelayConfig config, int workers, int exchanges) {
    RuntimeOptions o = RuntimeOptions.defaults().withThreads(workers)
        .withMinSuccessFraction(config.minSuccessFraction())
        .withMaxWeight(config.maxExamplesPerClient(), config.overMaxExamples());
    // A secure edge round is one pseudo-client that runs all the protocol's exchanges, each
    // allowed the round timeout, as on the server.
    return config.roundTimeout().map(t -> o.withClientTimeout(t.multipliedBy(exchanges)
        .plus(BACKSTOP))).orElse(o);
  }
}
