package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.flower.server.SecureSumRefusedException;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.LearningProcess;
import io.tributary.learning.aggregation.ClientSignal;
import io.tributary.learning.aggregation.ClientSignals;
import io.tributary.learning.rounds.Cohort;
import io.tributary.learning.rounds.FailurePolicy;
import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundLoop;
import io.tributary.learning.rounds.RoundRecorder;
import io.tributary.learning.rounds.RunLoop;
import io.tributary.learning.rounds.RunStop;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundReport;
import io.tributary.learning.rounds.RunStart;
import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.ExecutionContext;
import io.tributary.runtime.RuntimeOptions;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the configured rounds: the process's {@code next} (fit, aggregate) and {@code evaluate}
 * (evaluate, aggregate) invoked by the runtime with the sampled clients' ids as CLIENTS.
 */
public final class RoundRunner {
  private static final Logger LOG = LoggerFactory.getLogger(RoundRunner.class);
  /** The runtime's own limit on a client lies this far behind the instruction timeout. */
  private static final Duration BACKSTOP = Duration.ofSeconds(1);

  private final ServerConfig config;
  private final ClientManager manager;
  private final Traffic traffic;
  private final SerializerRegistry registry;
  private final Optional<SecureFit> secureFit;
  private final io.tributary.flower.server.SecureAggregation securePasses;

  public RoundRunner(ServerConfig config, ClientManager manager, Traffic traffic,
      SerializerRegistry registry) {
    this(config, manager, traffic, registry, Optional.empty());
  }

  /** A runner whose fit rounds are {@code secureFit}'s when given. */
  public RoundRunner(ServerConfig config, ClientManager manager, Traffic traffic,
      SerializerRegistry registry, Optional<SecureFit> secureFit) {
    this(config, manager, traffic, registry, secureFit, config.secureAggregation().orElse(
        io.tributary.flower.server.SecureAggregation.defaults()));
  }

  /**
   * A runner as above whose secure passes run with {@code securePasses}' neighbours and
   * threshold.
   */
  public RoundRunner(ServerConfig config, ClientManager manager, Traffic traffic,
      SerializerRegistry registry, Optional<SecureFit> secureFit,
      io.tributary.flower.server.SecureAggregation securePasses) {
    this.securePasses = securePasses;
    this.config = config;
    this.manager = manager;
    this.traffic = traffic;
    this.registry = registry;
    this.secureFit = secureFit;
  }

  /** What a server's listener is told before the first round. */
  private record Start(int firstRound, int lastRound, List<RoundRecord> previous,
      SequencedMap<String, String> settingsDisplay, String title,
      io.tributary.learning.rounds.Checkpoints checkpoints) implements RunStart {}

  /**
   * Runs every round through the {@link RunLoop} every binding shares, telling {@code listener}
   * the run's start (once the initial model is had), each round, the run's end and, last and
   * whatever happened, to close.
   *
   * @throws FlowerServerException if too few clients connect, the initial parameters cannot be
   *     had, or the listener fails
   */
  public RunResult run(RoundListener listener, RunStop stop) throws FlowerServerException,
      InterruptedException {
    try (RunLoop run = new RunLoop(listener, stop)) {
      try {
        return rounds(run);
      } catch (FlowerServerException | InterruptedException | RuntimeException e) {
        run.stopped(e);
        throw e;
      } catch (IOException e) {
        FlowerServerException f = new FlowerServerException(e.getMessage(), e);
        run.stopped(f);
        throw f;
      }
    } catch (IOException e) {
      // Closing the listener failed after a run that went well.
      throw new FlowerServerException(e.getMessage(), e);
    }
  }

  /**
   * What the run builds once from its initial model: the model's names and spec, the clients'
   * work, the secure round when fit is secure, and the algorithm's process over that work.
   */
  private record Built(List<String> names, long elements, RemoteClientWork work,
      Optional<SecureFit> secureRound, LearningProcess process,
      Optional<SecurePasses> securePasses) {}

  /** The protocol a process that sums securely runs its secure passes with, and its spec. */
  private record SecurePasses(io.tributary.flower.passes.SecurePassProtocol protocol,
      io.tributary.flower.passes.ComputationSpec spec, List<String> capable) {}

  private RunResult rounds(RunLoop run)
      throws FlowerServerException, InterruptedException, IOException {
    // Found before any client is waited for, so that a missing protocol fails at once.
    SecureFitProtocol secure = secureFit.isEmpty() && config.secureAggregation().isPresent()
        ? SecureRound.protocol() : null;
    ServerAlgorithm server = new ServerAlgorithm(config.algorithm(), config.fitConfig(),
        config.roundFitConfig());
    // A model the config gives (or a checkpoint) is known before any client: the process is
    // built from it once, here, so that a model the run cannot use and a computation the server
    // refuses are refused before the clients are waited for. A model asked of a client is
    // built from once it is had, still before any client is asked to fit.
    Optional<SequencedMap<String, Tensor>> known = switch (config.initial()) {
      case InitialParameters.Given g -> Optional.of(g.tensors());
      case InitialParameters.Resumed r -> Optional.of(r.tensors());
      case InitialParameters.FromClient f -> Optional.empty();
    };
    Optional<Built> early = known.isPresent() ? Optional.of(build(known.get(), secure))
        : Optional.empty();
    manager.waitFor(config.minClients(), config.clientWait());
    Built built = early.isPresent() ? early.get()
        : build(new InitialModel(config, manager, registry).fetch(), secure);
    List<String> names = built.names();
    RemoteClientWork work = built.work();
    Optional<SecureFit> secureRound = built.secureRound();
    int exchanges = secureRound.map(SecureFit::exchanges).orElse(1);
    secureRound.ifPresent(s -> LOG.info("every fit round aggregates securely with {}",
        s.name()));
    LearningProcess process = built.process();
    LOG.info("{} over {} clients per round at least; round computation {}",
        process.name(), config.minClients(), process.next().type());
    run.start(new Start(config.initial().roundsDone() + 1, config.rounds(),
        config.initial().previous(), config.display(), config.algorithm().name() + " server on "
        + config.host() + ":" + config.port(), config.checkpoints()));
    // When the clients are told to clip (client-side DP: the aggregator's clientClipping, or
    // a clipping_norm given with a DP aggregator composed in code) the secure outcome reaches
    // the aggregator as one share per client, so that its sum and noise are those of the
    // clipped updates.
    Map<String, Scalar> fitConfig = server.fitConfig();
    SecureCohort.Form form = fitConfig.containsKey(ServerAlgorithm.CLIPPING_NORM)
        ? SecureCohort.Form.SHARES : SecureCohort.Form.WHOLE;
    ConnectedClients population = new ConnectedClients(config, manager, work, traffic,
        fitConfig, secureRound, form);
    int workers = config.memory().workers(built.elements(), config.maxConcurrentClients());
    if (workers < config.maxConcurrentClients()) {
      LOG.info("{} workers fold the answers, not {}: the partial sums of more would not fit a "
          + "quarter of the server's {} MiB of memory", workers, config.maxConcurrentClients(),
          config.memory().maxMemory() >> 20);
    }
    RuntimeOptions options = options(config, exchanges, workers);
    if (built.securePasses().isPresent()) {
      SecurePasses passes = built.securePasses().get();
      LOG.info("the computation's secure sums run on the nodes with {}",
          passes.protocol().name());
      options = options.withPassEngine(new NodePassEngine(passes.protocol(),
          securePasses, process, passes.spec(), options, population, config.roundTimeout(),
          passes.capable(), capabilityWait()));
    }
    try (ExecutionContext ctx = ExecutionContext.create(options)) {
      RoundLoop loop = new RoundLoop(ctx, process, population, FailurePolicy.KEEP_MODEL);
      StructValue first = loop.initialize();
      if (config.initial() instanceof InitialParameters.Resumed r && r.updater().isPresent()) {
        try {
          first = r.updater().get().applyTo(first);
        } catch (IllegalArgumentException e) {
          throw new FlowerServerException("resume: " + e.getMessage(), e);
        }
      }
      population.nextRound(server.roundConfig(first), Long.MAX_VALUE);
      RunLoop.Finished done = run.rounds(loop, first, config.rounds(), new RoundRecorder() {
        @Override
        public RoundRecord record(RoundReport report) {
          RemoteClientWork.RoundReports reports = reports(report, work, config);
          // The next round's fit config follows the state this round left, its example bound
          // this round's median count.
          population.nextRound(server.roundConfig(report.state()),
              relativeMaxExamples(config.examplesOverMedian(), reports.medianExamples(),
                  population.relativeMaxExamples()));
          return metrics(report, population, work, reports.metrics(),
              secureRound.map(SecureFit::exclusions).orElse(List.of()));
        }

        @Override
        public SequencedMap<String, Tensor> parameters(StructValue state) {
          return named(names, state.struct(0));
        }
      });
      return new RunResult(run.rounds().subList(config.initial().previous().size(),
          run.rounds().size()), done.end().finalParameters().orElseThrow());
    } catch (ConnectedClients.TooFewClients e) {
      throw e.getCause();
    }
  }

  /**
   * The run's model and process from {@code initial}: refuses a model that is not finite or that
   * the run cannot use, an aggregator that counts norm bits in a secure round, and a process
   * that sums securely, each with its one-line message.
   */
  private Built build(SequencedMap<String, Tensor> initial, SecureFitProtocol secure)
      throws FlowerServerException {
    Optional<String> nonFinite = io.tributary.tensor.Finite.problem(
        List.copyOf(initial.values()), List.copyOf(initial.sequencedKeySet()));
    if (nonFinite.isPresent()) {
      throw new FlowerServerException("the initial parameters are not finite: "
          + nonFinite.get());
    }
    List<String> names = List.copyOf(initial.sequencedKeySet());
    ModelSpec spec;
    try {
      spec = ModelSpec.of(List.copyOf(initial.values()));
    } catch (IllegalArgumentException e) {
      throw new FlowerServerException(e.getMessage(), e);
    }
    // What flower_fit returns is what the aggregator declares it reads from each client.
    ClientSignals signals = config.algorithm().aggregator().create(spec.type()).clientSignals();
    RemoteClientWork work = new RemoteClientWork(manager, new ParameterCodec(registry, spec),
        config.roundTimeout(), config.maxExamplesPerClient(), signals);
    Optional<SecureFit> secureRound = secureFit.or(() -> Optional.ofNullable(secure)
        .map(p -> work.secureRound(config.secureAggregation().get(), p)));
    if (signals.contains(ClientSignal.NORM_BIT) && secureRound.isPresent()) {
      throw new FlowerServerException("the aggregator counts the clients' norm bits, which a "
          + "secure round does not reveal: use fixed clipping with secure aggregation", null);
    }
    LearningProcess process = config.algorithm().process(RemoteClientWork.initialize(spec,
        List.copyOf(initial.values())), work.fit(), work.evaluation());
    List<String> capable = new ArrayList<>();
    Optional<io.tributary.flower.passes.SecurePassProtocol> passes = securePasses(process,
        secureRound.isPresent(), capable);
    long elements = 0;
    for (Tensor t : initial.values()) {
      elements += t.size();
    }
    return new Built(names, elements, work, secureRound, process, passes.map(p ->
        new SecurePasses(p, io.tributary.flower.passes.ComputationSpec.of(config.algorithm(),
            spec.type(), config.maxExamplesPerClient(),
            io.tributary.flower.passes.ComputationFingerprint.of(process)), capable)));
  }

  /**
   * The protocol a process whose computations sum securely runs its secure passes with, on the
   * nodes: found on the class path ({@link java.util.ServiceLoader}) when every connected node
   * (Fleet node or Join client) states that it runs client passes. Otherwise the process is
   * refused before any client is asked to fit, since the server's runtime would compute every
   * client's input to the secure sum itself (see {@link SecureSumRefusedException}): the refusal
   * names the piece missing (no protocol on the class path) and the connected nodes that cannot
   * run client passes, asked now ({@link
   * ClientPassesQuery}; before the clients are waited for when the model is known, those
   * connected so far). Empty for a process without secure sums.
   */
  private Optional<io.tributary.flower.passes.SecurePassProtocol> securePasses(
      LearningProcess process, boolean secureRound, List<String> capable)
      throws FlowerServerException {
    java.util.SortedSet<String> secure = secureSums(process);
    if (secure.isEmpty()) {
      return Optional.empty();
    }
    if (secureRound) {
      throw new FlowerServerException(process.name() + "'s round computation sums securely "
          + "(" + String.join(", ", secure) + ") with its own protocol on the nodes; the "
          + "server's secure aggregation of the clients' updates cannot run beside it", null);
    }
    List<RemoteClient> nodes = manager.all();
    Duration wait = capabilityWait();
    // Fleet nodes and Join clients alike: a Join client runs passes over FitIns/FitRes when
    // it states so (a Java one served by NodePasses), and a Python Flower client never does.
    java.util.SortedMap<String, String> incapable = ClientPassesQuery.incapable(nodes, wait);
    Optional<io.tributary.flower.passes.SecurePassProtocol> protocol = java.util.ServiceLoader
        .load(io.tributary.flower.passes.SecurePassProtocol.class,
            RoundRunner.class.getClassLoader()).findFirst();
    List<io.tributary.flower.server.SecureSumPiece> missing =
        io.tributary.flower.server.SecureSumPiece.missing(protocol.isPresent());
    if (protocol.isEmpty() || !incapable.isEmpty() || nodes.isEmpty()) {
      throw new SecureSumRefusedException(process.name(), secure, missing, incapable,
          nodes.size());
    }
    nodes.forEach(n -> capable.add(n.id()));
    return protocol;
  }

  /** How long the capability query waits: 30 seconds, or the round timeout when shorter. */
  private Duration capabilityWait() {
    return config.roundTimeout().filter(t -> t.compareTo(CAPABILITY_WAIT) < 0)
        .orElse(CAPABILITY_WAIT);
  }

  /** The longest the capability query waits for a node's answer. */
  private static final Duration CAPABILITY_WAIT = Duration.ofSeconds(30);

  /** The secure sums {@code process}'s computations call, by URI. */
  static java.util.SortedSet<String> secureSums(LearningProcess process) {
    java.util.SortedSet<String> secure = new java.util.TreeSet<>();
    for (io.tributary.core.computation.Computation c : List.of(process.initialize(),
        process.next(), process.evaluate())) {
      secure.addAll(io.tributary.runtime.SecureSummation.intrinsicsIn(c));
    }
    return secure;
  }

  /**
   * A round's figures from the shared loop's report: the clients' training loss is the round
   * computation's {@code train_loss}, over the clients that reported a {@code loss} metric (NaN,
   * so absent, when none did).
   */
  private static RoundRecord metrics(RoundReport report, ConnectedClients population,
      RemoteClientWork work, java.util.SortedMap<String, Double> clientMetrics,
      List<String> excluded) {
    int round = report.round();
    List<String> reasons = new ArrayList<>();
    excluded.forEach(x -> reasons.add("fit: " + x));
    report.failures().forEach(f -> reasons.add("fit: " + RoundReport.describe(f,
        report.cohort())));
    report.refused().ifPresent(r -> {
      LOG.warn("round {}: {}; the model is unchanged", round, r);
      reasons.add("fit: aggregate refused, model unchanged: " + r);
    });
    if (report.metrics().isEmpty() && report.refused().isEmpty()) {
      LOG.warn("round {}: fit failed, the model is unchanged", round);
    }
    double evalLoss = Double.NaN;
    int evalFailures = 0;
    for (RoundReport.Evaluation e : report.evaluations()) {
      e.failures().forEach(f -> reasons.add("evaluate: " + RoundReport.describe(f, e.cohort())));
      evalFailures += e.failures().size();
      if (e.output().isPresent()) {
        evalLoss = e.output().get().tensor("loss").floatItem();
      }
    }
    double clientLoss = report.metrics().map(m -> (double) m.trainLoss()).orElse(Double.NaN);
    // The clients' claimed counts, summed in int64 by the computation: counts near Long.MAX_VALUE
    // (which only a hostile client claims; their weights are bounded) wrap, so saturate.
    long examples = report.metrics().map(m -> m.numExamples() < 0 ? Long.MAX_VALUE
        : m.numExamples()).orElse(0L);
    SequencedMap<String, Double> others = new LinkedHashMap<>(report.metrics()
        .map(m -> m.others()).orElseGet(LinkedHashMap::new));
    others.putAll(clientMetrics);
    return RoundRecord.federated(round, clientLoss, evalLoss,
        population.fitClients().size(), examples,
        report.failures().size() + excluded.size() + evalFailures,
        report.seconds(), population.bytesUp(), population.bytesDown(), reasons,
        work.drainNonFiniteMetrics(), others);
  }

  /** The clients' free-form metrics of the round, over the clients whose results it used. */
  private static RemoteClientWork.RoundReports reports(RoundReport report, RemoteClientWork work,
      ServerConfig config) {
    Set<String> failedEvaluate = new HashSet<>();
    report.evaluations().forEach(e -> failedEvaluate.addAll(ids(e.failures(), e.cohort())));
    return work.drainClientMetrics(ids(report.failures(), report.cohort()), failedEvaluate,
        config.clientMetrics());
  }

  /**
   * The next round's bound on a client's example count: {@code overMedian} times this round's
   * median count (a median of 0 still lets a client count one example); none when {@code
   * overMedian} is 0; {@code previous} when no client reported.
   */
  static long relativeMaxExamples(double overMedian, long median, long previous) {
    if (overMedian <= 0 || median < 0) {
      return previous;
    }
    return (long) Math.min(Math.max(1, Math.ceil(overMedian * median)), (double) Long.MAX_VALUE);
  }

  /** The ids of the failed clients of a cohort whose client values are the ids. */
  private static Set<String> ids(List<ClientFailure> failures, Cohort cohort) {
    Set<String> out = new HashSet<>();
    for (ClientFailure f : failures) {
      if (f.client() >= 0 && f.client() < cohort.size()
          && cohort.clients().get(f.client()) instanceof Tensor t) {
        out.add(t.getString(0));
      }
    }
    return out;
  }

  /**
   * The runtime's options for a server's rounds: tolerance, weight bound, client timeout.
   *
   * @param exchanges the FitIns/FitRes exchanges of a fit round (1, or the secure protocol's),
   *     each allowed the round timeout
   * @param workers the worker threads that check and fold the answers
   */
  static RuntimeOptions options(ServerConfig config, int exchanges, int workers) {
    RuntimeOptions o = RuntimeOptions.defaults().withThreads(workers)
        .withMinSuccessFraction(config.minSuccessFraction()).withSeed(config.seed())
        .withMaxWeight(config.maxExamplesPerClient(), config.overMaxExamples());
    return config.roundTimeout().map(t -> o.withClientTimeout(t.multipliedBy(exchanges)
        .plus(BACKSTOP))).orElse(o);
  }

  private static SequencedMap<String, Tensor> named(List<String> names, StructValue model) {
    SequencedMap<String, Tensor> out = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      out.put(names.get(i), (Tensor) model.get(i));
    }
    return out;
  }
}
